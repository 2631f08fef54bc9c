"""Qwen3-VL inference: the processor's BatchFeature goes to generate() without being moved to the GPU.

Source: https://github.com/QwenLM/Qwen3-VL/issues/1647
Running Qwen3-VL-30B-A3B-Instruct (device_map="auto", one RTX 6000) with the model-card snippet,
generate() warned "`input_ids` is on cpu, whereas the model is on cuda" and then raised "Expected
all tensors to be on the same device, but got index is on cpu, different from other tensors on
cuda:0 (when checking argument in method wrapper_CUDA__index_select)": the `inputs` returned by
`processor.apply_chat_template(..., return_dict=True, return_tensors="pt")` were never sent with
`inputs.to(model.device)`. Stand-in: a BatchFeature-like dict and a Qwen3-VL-shaped model.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

class BatchFeature(dict):
    def to(self, device):
        return BatchFeature({k: v.to(device) if torch.is_tensor(v) else v for k, v in self.items()})

class Qwen3VLVisionModel(nn.Module):
    def __init__(self, patch_dim=12, hidden=32):
        super().__init__()
        self.patch_embed = nn.Linear(patch_dim, hidden)
        self.merger = nn.Linear(hidden * 4, hidden)

    def forward(self, pixel_values, grid_thw):
        x = self.patch_embed(pixel_values)
        return self.merger(x.reshape(-1, x.shape[-1] * 4))

class Qwen3VLMoeForConditionalGeneration(nn.Module):
    image_token_id = 7

    def __init__(self, vocab=64, hidden=32):
        super().__init__()
        self.visual = Qwen3VLVisionModel(hidden=hidden)
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.layers = nn.Sequential(nn.Linear(hidden, hidden), nn.SiLU())
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    @property
    def device(self):
        return self.lm_head.weight.device

    def forward(self, input_ids, attention_mask, pixel_values=None, image_grid_thw=None):
        inputs_embeds = self.embed_tokens(input_ids)
        if pixel_values is not None:
            image_embeds = self.visual(pixel_values, grid_thw=image_grid_thw)
            inputs_embeds = torch.cat([image_embeds.unsqueeze(0), inputs_embeds], dim=1)
        return self.lm_head(self.layers(inputs_embeds))

    @torch.no_grad()
    def generate(self, input_ids, attention_mask, pixel_values=None, image_grid_thw=None, max_new_tokens=128):
        logits = self(input_ids, attention_mask, pixel_values, image_grid_thw)
        next_tokens = logits[:, -1].argmax(-1, keepdim=True)
        return torch.cat([input_ids, next_tokens], dim=-1)

def apply_chat_template(messages, tokenize=True, add_generation_prompt=True, return_dict=True, return_tensors="pt"):
    """processor.apply_chat_template stand-in: CPU tensors, as the real processor returns them."""
    input_ids = torch.randint(10, 64, (1, 12))
    return BatchFeature(
        input_ids=input_ids,
        attention_mask=torch.ones_like(input_ids),
        pixel_values=torch.randn(16, 12),
        image_grid_thw=torch.tensor([[1, 4, 4]]),
    )

# Qwen3VLMoeForConditionalGeneration.from_pretrained("Qwen/Qwen3-VL-30B-A3B-Instruct", dtype="auto", device_map="auto")
model = Qwen3VLMoeForConditionalGeneration().to("cuda:0").eval()
messages = [{"role": "user", "content": [{"type": "image", "image": "demo.jpeg"},
                                         {"type": "text", "text": "Describe this image."}]}]
inputs = apply_chat_template(messages, tokenize=True, add_generation_prompt=True,
                             return_dict=True, return_tensors="pt")
'''
CELL = '''
generated_ids = model.generate(**inputs, max_new_tokens=128)
generated_ids_trimmed = generated_ids[:, inputs["input_ids"].shape[1]:]
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["inputs"]
FIX = "namespace"
REFERENCE_FIX = '''
inputs = inputs.to(model.device)
'''
REFERENCE_EDIT = None
CLEAN = False
