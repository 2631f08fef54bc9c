"""PLLaVA demo: a float16 language model receives bfloat16 image features in the embedding merge.

Source: https://github.com/magic-research/PLLaVA/issues/29
Running the demo with the HF `llava-v1.6-vicuna-7b-hf` folder as the weights argument left the
vision tower and projector in bfloat16 while the language model ran in float16; the merge
`final_embedding[image_to_overwrite] = image_features.contiguous().reshape(-1, embed_dim).to(target_device)`
raised "Index put requires the source and destination dtypes match, got Half for the destination
and BFloat16 for the source". The reporter: "the dtype of the llm does not match the dtype of the
vision model". Stand-in: LLaVA's `_merge_input_ids_with_image_features` at toy size, on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
from torch import nn

class PllavaMultiModalProjector(nn.Module):
    def __init__(self, vision_hidden=24, text_hidden=32):
        super().__init__()
        self.linear_1 = nn.Linear(vision_hidden, text_hidden)
        self.act = nn.GELU()
        self.linear_2 = nn.Linear(text_hidden, text_hidden)

    def forward(self, image_features):
        return self.linear_2(self.act(self.linear_1(image_features)))

class LanguageModel(nn.Module):
    def __init__(self, vocab=100, hidden=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    def get_input_embeddings(self):
        return self.embed_tokens

class PllavaForConditionalGeneration(nn.Module):
    image_token_index = 99

    def __init__(self):
        super().__init__()
        self.vision_tower = nn.Sequential(nn.Conv2d(3, 24, 8, stride=8), nn.Flatten(2))
        self.multi_modal_projector = PllavaMultiModalProjector()
        self.language_model = LanguageModel()

    def _merge_input_ids_with_image_features(self, image_features, inputs_embeds, input_ids):
        num_images, num_image_patches, embed_dim = image_features.shape
        batch_size, seq_len = input_ids.shape
        special_image_token_mask = input_ids == self.image_token_index
        max_embed_dim = seq_len - 1 + num_image_patches
        final_embedding = torch.zeros(batch_size, max_embed_dim, embed_dim,
                                      dtype=inputs_embeds.dtype, device=inputs_embeds.device)
        new_token_positions = torch.cumsum((special_image_token_mask * (num_image_patches - 1) + 1), -1) - 1
        batch_indices, text_indices = torch.where(~special_image_token_mask)
        final_embedding[batch_indices, new_token_positions[batch_indices, text_indices]] = inputs_embeds[batch_indices, text_indices]
        image_to_overwrite = torch.all(final_embedding == 0, dim=-1)
        target_device = inputs_embeds.device
        final_embedding[image_to_overwrite] = image_features.contiguous().reshape(-1, embed_dim).to(target_device)
        return final_embedding

    def forward(self, input_ids, pixel_values):
        inputs_embeds = self.language_model.get_input_embeddings()(input_ids)
        image_outputs = self.vision_tower(pixel_values).transpose(1, 2)
        image_features = self.multi_modal_projector(image_outputs)
        inputs_embeds = self._merge_input_ids_with_image_features(image_features, inputs_embeds, input_ids)
        return self.language_model.lm_head(inputs_embeds)

# the demo: language model in float16; the vision side loaded from the HF llava folder in bfloat16
model = PllavaForConditionalGeneration().eval()
model.language_model.to(torch.float16)
model.vision_tower.to(torch.bfloat16)
model.multi_modal_projector.to(torch.bfloat16)
input_ids = torch.tensor([[1, 5, 99, 6, 7, 8]])
pixel_values = torch.randn(1, 3, 32, 32, dtype=torch.bfloat16)
'''
CELL = '''
with torch.no_grad():
    logits = model(input_ids=input_ids, pixel_values=pixel_values)
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["model.multi_modal_projector"]
FIX = "namespace"
REFERENCE_FIX = '''
model.vision_tower.to(torch.float16)
model.multi_modal_projector.to(torch.float16)
pixel_values = pixel_values.to(torch.float16)
'''
REFERENCE_EDIT = None
CLEAN = False
