"""AstrAI `inject_lora()` after `model.to("cuda")`: the new `lora_A`/`lora_B` are created on the CPU.

Source: https://github.com/ViperEkura/AstrAI/pull/19
"When `inject_lora()` replaces `Linear` layers with `LoRALinear` after the model has been moved to
CUDA, `lora_A` and `lora_B` were always created on CPU via `torch.randn()` / `torch.zeros()`
defaults. This caused `RuntimeError: Expected all tensors to be on the same device` during the first
forward pass." The fix creates both matrices on the device (and dtype) of the base weight.
Stand-in: AstrAI's `LoRALinear` (it re-registers the base weight and adds the two low-rank
parameters) as it was before the fix, its `inject_lora`, and a tiny attention/MLP transformer.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

TARGET_MODULES_ATTN = {"q_proj", "k_proj", "v_proj", "o_proj"}

class LoRALinear(nn.Module):
    """Stand-in for astrai.model.components.lora.LoRALinear before the fix."""
    def __init__(self, base, r=16, alpha=32):
        super().__init__()
        self.register_parameter("weight", base.weight)
        self.weight.requires_grad_(False)
        self.bias = base.bias
        if self.bias is not None:
            self.bias.requires_grad_(False)
        self.r = r
        self.scaling = alpha / r
        self.lora_A = nn.Parameter(torch.randn(r, self.weight.shape[1]) / r)
        self.lora_B = nn.Parameter(torch.zeros(self.weight.shape[0], r))
        self._merged = False

    def forward(self, x):
        out = F.linear(x, self.weight, self.bias)
        if not self._merged:
            out = out + (F.linear(x, self.lora_A) @ self.lora_B.T) * self.scaling
        return out

def inject_lora(model, r=16, alpha=32, target_modules=None):
    if target_modules is None:
        target_modules = TARGET_MODULES_ATTN
    for name, module in list(model.named_modules()):
        if not isinstance(module, nn.Linear):
            continue
        parent_name, _, child_name = name.rpartition(".")
        if child_name not in target_modules:
            continue
        parent = model.get_submodule(parent_name) if parent_name else model
        setattr(parent, child_name, LoRALinear(module, r=r, alpha=alpha))

class Attention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.q_proj = nn.Linear(d, d, bias=False)
        self.k_proj = nn.Linear(d, d, bias=False)
        self.v_proj = nn.Linear(d, d, bias=False)
        self.o_proj = nn.Linear(d, d, bias=False)

    def forward(self, x):
        q, k, v = self.q_proj(x), self.k_proj(x), self.v_proj(x)
        att = torch.softmax(q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5, dim=-1)
        return self.o_proj(att @ v)

class DecoderBlock(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.attention = Attention(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, x):
        x = x + self.attention(x)
        return x + self.mlp(x)

class Transformer(nn.Module):
    def __init__(self, vocab=128, d=32, n_layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([DecoderBlock(d) for _ in range(n_layers)])
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = layer(h)
        return self.lm_head(h)

model = Transformer()
model.to("cuda:0")                  # model.to('cuda') ...
inject_lora(model, r=8, alpha=16)   # ... then inject_lora
input_ids = torch.randint(0, 128, (2, 12)).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    logits = model(input_ids)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """        self.lora_A = nn.Parameter(torch.randn(r, self.weight.shape[1]) / r)
        self.lora_B = nn.Parameter(torch.zeros(self.weight.shape[0], r))""",
    """        device = self.weight.device
        dtype = self.weight.dtype
        self.lora_A = nn.Parameter(torch.randn(r, self.weight.shape[1], device=device, dtype=dtype) / r)
        self.lora_B = nn.Parameter(torch.zeros(self.weight.shape[0], r, device=device, dtype=dtype))""",
)
CLEAN = False
