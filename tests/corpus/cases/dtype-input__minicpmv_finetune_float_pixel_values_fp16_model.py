"""MiniCPM-V fine-tuning in fp16: the collated pixel values are float32, the vision tower's weights float16.

Source: https://github.com/OpenBMB/MiniCPM-V/issues/234
Running `finetune.py` on Colab (no bf16, so the model is loaded with `torch_dtype=torch.float16`)
failed in `trainer.compute_loss` -> `self.model.base_model(data=inputs, use_cache=False)` with
"mat1 and mat2 must have the same dtype, but got Float and Half": the data collator returns the
image patches as float32 tensors, the vision encoder's linear patch embedding is half. Stand-in:
a vision tower + resampler + LM head reduced to linear layers; the batch dict as the collator
returns it.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class VisionTower(nn.Module):
    def __init__(self, patch_dim=3 * 4 * 4, dim=32):
        super().__init__()
        self.patch_embed = nn.Linear(patch_dim, dim)
        self.block = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim), nn.GELU())

    def forward(self, patches):
        return self.block(self.patch_embed(patches))

class Resampler(nn.Module):
    def __init__(self, dim=32, num_queries=4):
        super().__init__()
        self.query = nn.Parameter(torch.randn(num_queries, dim))
        self.kv_proj = nn.Linear(dim, dim)

    def forward(self, x):
        kv = self.kv_proj(x)
        attn = torch.softmax(self.query @ kv.transpose(-1, -2), dim=-1)
        return attn @ kv

class MiniCPMV(nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.vpm = VisionTower(dim=dim)
        self.resampler = Resampler(dim=dim)
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab)

    def get_vllm_embedding(self, data):
        vision_hidden_states = [self.resampler(self.vpm(p)) for p in data["pixel_values"]]
        text = self.embed_tokens(data["input_ids"])
        return torch.cat([torch.stack(vision_hidden_states), text], dim=1)

    def forward(self, data, use_cache=False):
        h = self.get_vllm_embedding(data)
        logits = self.lm_head(h).float()
        n_img = logits.shape[1] - data["labels"].shape[1]
        return F.cross_entropy(logits.narrow(1, n_img, data["labels"].shape[1]).flatten(0, 1),
                               data["labels"].flatten(), ignore_index=-100)

class CPMTrainer:
    def __init__(self, model):
        self.model = model

    def compute_loss(self, model, inputs):
        return self.model(data=inputs, use_cache=False)

model = MiniCPMV().to(torch.float16)       # torch_dtype=torch.float16 (no bf16 on the T4)
trainer = CPMTrainer(model)
# one batch as the data collator returns it: image slices as flattened 4x4 patches
inputs = {
    "pixel_values": [torch.rand(16, 48), torch.rand(16, 48)],
    "input_ids": torch.randint(0, 100, (2, 10)),
    "labels": torch.randint(0, 100, (2, 10)),
}
'''
CELL = '''
loss = trainer.compute_loss(model, inputs)
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["inputs['pixel_values']"]
FIX = "namespace"
REFERENCE_FIX = '''
inputs["pixel_values"] = [p.to(torch.float16) for p in inputs["pixel_values"]]
'''
REFERENCE_EDIT = None
CLEAN = False
