"""SmolVLM2 loaded with a bitsandbytes config: `inputs_merger` writes float32 image features into bfloat16 text embeddings.

Source: https://github.com/huggingface/transformers/pull/41482
Fixes issue #41453, "SmolVLM2 cannot be used with quantization": loading SmolVLM2 with
`BitsAndBytesConfig(..., bnb_4bit_compute_dtype=torch.bfloat16)` and generating failed in
`SmolVLMModel.inputs_merger` with "Index put requires the source and destination dtypes match, got
BFloat16 for the destination and Float for the source." Cause given in the PR: quantization puts the
text side (`inputs_embeds`) in bfloat16 while the vision encoder + connector output
`image_hidden_states` in float32, and `image_embeds[image_mask] = image_hidden_states[...]` assigns
across dtypes. Fix: cast `image_hidden_states` to `inputs_embeds.dtype` before the assignment.
Stand-ins: a toy SmolVLM (patch-linear vision model, pixel-shuffle connector, embedding + one bf16
layer + lm_head) whose `from_pretrained` applies the quantization config to the text side only, as
bitsandbytes leaves the vision tower unquantized; one greedy step for generate. CPU: dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

class BitsAndBytesConfig:
    def __init__(self, load_in_4bit=False, bnb_4bit_compute_dtype=torch.float32, bnb_4bit_quant_type="nf4"):
        self.load_in_4bit = load_in_4bit
        self.bnb_4bit_compute_dtype = bnb_4bit_compute_dtype
        self.bnb_4bit_quant_type = bnb_4bit_quant_type

class SmolVLMConnector(nn.Module):
    def __init__(self, vision_dim=32, text_dim=64, scale_factor=2):
        super().__init__()
        self.scale_factor = scale_factor
        self.proj = nn.Linear(vision_dim * scale_factor ** 2, text_dim, bias=False)

    def forward(self, image_hidden_states):              # pixel shuffle: 16 patches -> 4 tokens
        b, seq, d = image_hidden_states.shape
        return self.proj(image_hidden_states.reshape(b, seq // self.scale_factor ** 2, d * self.scale_factor ** 2))

class SmolVLMModel(nn.Module):
    def __init__(self, vocab=100, image_token_id=99):
        super().__init__()
        self.image_token_id = image_token_id
        self.vision_model = nn.Linear(48, 32)            # SigLIP patch embedding + encoder (toy)
        self.connector = SmolVLMConnector()
        self.text_model = nn.Module()
        self.text_model.embed_tokens = nn.Embedding(vocab, 64)
        self.text_model.layer = nn.Linear(64, 64)

    def get_image_features(self, pixel_values):
        b, n, c, h, w = pixel_values.shape
        patches = pixel_values.reshape(b * n, c, 4, h // 4, 4, w // 4).permute(0, 2, 4, 1, 3, 5).reshape(b * n, 16, -1)
        return self.connector(self.vision_model(patches))

    def inputs_merger(self, input_ids, inputs_embeds, image_hidden_states):
        _, patch_size, _ = image_hidden_states.shape
        image_mask = input_ids == self.image_token_id
        num_image_tokens = image_mask.sum(dim=1)
        if not torch.all(num_image_tokens % patch_size == 0):
            raise ValueError("At least one sample has <image> tokens not divisible by patch_size.")
        blocks_per_sample = num_image_tokens // patch_size
        offsets = torch.nn.functional.pad(blocks_per_sample.cumsum(dim=0), (1, 0), value=0)
        block_offset = offsets[:-1]
        row_cum = image_mask.cumsum(dim=-1)
        chunk_idx = (row_cum - 1) // patch_size
        local_idx = (row_cum - 1) % patch_size
        block_idx = block_offset.unsqueeze(1) + chunk_idx
        image_embeds = torch.zeros_like(inputs_embeds)
        image_embeds[image_mask] = image_hidden_states[block_idx[image_mask], local_idx[image_mask], :]
        return torch.where(image_mask.unsqueeze(-1), image_embeds, inputs_embeds)

    def forward(self, input_ids, pixel_values):
        inputs_embeds = self.text_model.embed_tokens(input_ids)
        image_hidden_states = self.get_image_features(pixel_values)
        inputs_embeds = self.inputs_merger(input_ids, inputs_embeds, image_hidden_states)
        return self.text_model.layer(inputs_embeds)

class SmolVLMForConditionalGeneration(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = SmolVLMModel()
        self.lm_head = nn.Linear(64, 100, bias=False)

    @classmethod
    def from_pretrained(cls, name, quantization_config=None):
        model = cls()
        if quantization_config is not None:              # bnb: text side quantized, compute dtype bf16
            model.model.text_model.to(quantization_config.bnb_4bit_compute_dtype)
            model.lm_head.to(quantization_config.bnb_4bit_compute_dtype)
        return model

    def generate(self, input_ids, pixel_values, attention_mask=None, max_new_tokens=1):
        with torch.no_grad():
            hidden = self.model(input_ids, pixel_values)
            next_tokens = self.lm_head(hidden[:, -1]).argmax(-1, keepdim=True)
        return torch.cat([input_ids, next_tokens], dim=1)

bnb_config = BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_compute_dtype=torch.bfloat16)
model = SmolVLMForConditionalGeneration.from_pretrained(
    "HuggingFaceTB/SmolVLM2-2.2B-Instruct", quantization_config=bnb_config)

# processor.apply_chat_template(messages, ..., return_tensors="pt"): 4 <image> tokens per image
inputs = {
    "input_ids": torch.tensor([[1, 5, 99, 99, 99, 99, 7, 8, 9]]),
    "attention_mask": torch.ones(1, 9, dtype=torch.long),
    "pixel_values": torch.randn(1, 1, 3, 16, 16),
}
'''
CELL = '''
generated_ids = model.generate(**inputs, max_new_tokens=64)
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["model.model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        image_embeds = torch.zeros_like(inputs_embeds)\n",
                  "        image_hidden_states = image_hidden_states.to(dtype=inputs_embeds.dtype)\n"
                  "        image_embeds = torch.zeros_like(inputs_embeds)\n")
CLEAN = False
