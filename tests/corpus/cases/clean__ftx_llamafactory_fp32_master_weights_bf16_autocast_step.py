"""LLaMA-Factory with `bf16: true` (not `pure_bf16`): the LoRA model is upcast to float32 and trained under bf16 autocast.

Source: https://github.com/hiyouga/LlamaFactory/issues/3346
"Why convert to float32 when not pure_bf16 instead of keeping the model's torch_dtype?": with
mixed-precision bf16 the loader calls `model.float()` on the trainable parts, so float32 weights
meet bfloat16 activations inside `torch.autocast`; hiyouga: that is what mixed-precision training
requires. Int64 input ids, float32 master weights, bf16 matmuls, float32 loss: a dtype look-alike
that runs. Stand-in: a tiny causal LM with a LoRA-style adapter on the output projection; the
trainer step (autocast forward, loss, backward, AdamW) on the CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class LoraLinear(nn.Module):
    def __init__(self, base, r=4, alpha=8):
        super().__init__()
        self.base = base
        self.lora_A = nn.Linear(base.in_features, r, bias=False)
        self.lora_B = nn.Linear(r, base.out_features, bias=False)
        nn.init.zeros_(self.lora_B.weight)
        self.scaling = alpha / r

    def forward(self, x):
        return self.base(x) + self.lora_B(self.lora_A(x)) * self.scaling

class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size=100, hidden=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden)
        self.o_proj = LoraLinear(nn.Linear(hidden, hidden, bias=False))
        self.norm = nn.LayerNorm(hidden)
        self.lm_head = nn.Linear(hidden, vocab_size, bias=False)

    def forward(self, input_ids, labels):
        h = self.norm(self.o_proj(self.embed_tokens(input_ids)))
        logits = self.lm_head(h)
        loss = F.cross_entropy(logits[:, :-1].float().reshape(-1, logits.size(-1)),
                               labels[:, 1:].reshape(-1), ignore_index=-100)
        return loss, logits

model = TinyCausalLM().to(torch.bfloat16)          # loaded with the checkpoint's torch_dtype
for p in model.parameters():
    p.requires_grad_(False)
for n, p in model.named_parameters():
    if "lora_" in n:
        p.requires_grad_(True)
model.float()                                       # not pure_bf16: upcast for mixed precision
optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-4)
input_ids = torch.randint(0, 100, (2, 12))
labels = input_ids.clone()
'''
CELL = '''
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    loss, logits = model(input_ids, labels)
loss.backward()
optimizer.step()
optimizer.zero_grad()
print(logits.dtype, loss.dtype, model.o_proj.lora_A.weight.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
