"""LLaMA-Factory LLaVA-1.5 LoRA with 8-bit quantization: float32 projector features merged into float16 embeddings.

Source: https://github.com/hiyouga/LlamaFactory/issues/3807
`llamafactory-cli train --model_name_or_path llava-hf/llava-1.5-13b-hf --quantization_bit 8 --fp16 True
--visual_inputs True ...` "broke after update to 2bec28e" with "Index put requires the source and
destination dtypes match, got Half for the destination and Float for the source": under quantized
training the multi-modal projector runs in float32 while the token embeddings are float16, which
LLaMA-Factory handles with `autocast_projector_dtype` (a forward hook casting the projector output
to the compute dtype); in that revision the hook's registration condition (it looked for
`quantization_method`) evidently did not fire, so the merge
`final_embedding[image_to_overwrite] = image_features...` received float32 features.
Stand-in: transformers' LlavaForConditionalGeneration merge at toy size, on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
from torch import nn

class LlavaMultiModalProjector(nn.Module):
    def __init__(self, vision_hidden=24, text_hidden=32):
        super().__init__()
        self.linear_1 = nn.Linear(vision_hidden, text_hidden)
        self.act = nn.GELU()
        self.linear_2 = nn.Linear(text_hidden, text_hidden)

    def forward(self, image_features):
        return self.linear_2(self.act(self.linear_1(image_features)))

class LlavaForConditionalGeneration(nn.Module):
    image_token_index = 99

    def __init__(self, vocab=100, hidden=32):
        super().__init__()
        self.vision_tower = nn.Sequential(nn.Conv2d(3, 24, 16, stride=16), nn.Flatten(2))
        self.multi_modal_projector = LlavaMultiModalProjector()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    def forward(self, input_ids, pixel_values, labels=None):
        inputs_embeds = self.embed_tokens(input_ids)
        image_outputs = self.vision_tower(pixel_values.to(self.vision_tower[0].weight.dtype)).transpose(1, 2)
        image_features = self.multi_modal_projector(image_outputs.to(self.multi_modal_projector.linear_1.weight.dtype))
        final_embedding = inputs_embeds.clone()
        image_to_overwrite = input_ids == self.image_token_index
        final_embedding[image_to_overwrite] = image_features.contiguous().reshape(-1, image_features.shape[-1])
        logits = self.lm_head(final_embedding).float()
        return nn.functional.cross_entropy(logits.flatten(0, 1), labels.flatten(), ignore_index=-100)

# load_in_8bit with llm_int8_skip_modules=["multi_modal_projector"]: everything else float16
model = LlavaForConditionalGeneration()
model.vision_tower.half()
model.embed_tokens.half()
model.lm_head.half()
# model.multi_modal_projector stays float32 (skipped from quantization)

input_ids = torch.tensor([[1, 99, 99, 99, 99, 5, 6, 7]])
batch = {"input_ids": input_ids, "pixel_values": torch.randn(1, 3, 32, 32),
         "labels": input_ids.masked_fill(input_ids == 99, -100)}
'''
CELL = '''
loss = model(**batch)
loss.backward()
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["model.multi_modal_projector"]
FIX = "namespace"
REFERENCE_FIX = '''
model.multi_modal_projector.half()
'''
REFERENCE_EDIT = None
CLEAN = False
