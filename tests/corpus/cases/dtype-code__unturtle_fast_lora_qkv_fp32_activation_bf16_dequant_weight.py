"""unturtle 4-bit + PEFT fast LoRA path: `matmul_lora` multiplies fp32 activations by the bf16 dequantized weight.

Source: https://github.com/nishide-dev/unturtle/issues/177
Under `from_pretrained(..., load_in_4bit=True)` then `get_peft_model(...)`, the fast QKV path
"fails at the first forward: RuntimeError: expected mat1 and mat2 to have the same dtype, but got:
float != c10::BFloat16". "The 4-bit weight dequantizes to bf16, and `matmul_lora` multiplies it
against the activation directly; `get_peft_model` runs `prepare_model_for_kbit_training`, which
upcasts embeddings and norms to fp32 ... so the model's real hidden states are fp32, which is exactly
what the path rejects." (input bf16: OK; input fp32: fails). Stand-in: a 4-bit-style layer that
dequantizes to bf16, the fast-LoRA `matmul_lora`/`apply_lora_qkv`, and a decoder layer whose norm
was upcast to fp32; run on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

class Linear4bit(nn.Module):
    def __init__(self, in_f, out_f, compute_dtype=torch.bfloat16):
        super().__init__()
        w = torch.randn(out_f, in_f)
        self.absmax = w.abs().amax(1, keepdim=True) / 7
        self.register_buffer("qweight", (w / self.absmax).round().to(torch.int8))
        self.compute_dtype = compute_dtype
        self.lora_A = nn.Linear(in_f, 4, bias=False).to(compute_dtype)
        self.lora_B = nn.Linear(4, out_f, bias=False).to(compute_dtype)
        self.scaling = 2.0

def fast_dequantize(layer):
    return (layer.qweight.float() * layer.absmax).to(layer.compute_dtype)

def matmul_lora(X, W, A, B, s):
    out = torch.matmul(X, W.t())
    return out + (X.to(A.dtype) @ A.t()) @ B.t() * s

def apply_lora_qkv(self, X):
    Q = matmul_lora(X, fast_dequantize(self.q_proj), self.q_proj.lora_A.weight, self.q_proj.lora_B.weight, self.q_proj.scaling)
    K = matmul_lora(X, fast_dequantize(self.k_proj), self.k_proj.lora_A.weight, self.k_proj.lora_B.weight, self.k_proj.scaling)
    V = matmul_lora(X, fast_dequantize(self.v_proj), self.v_proj.lora_A.weight, self.v_proj.lora_B.weight, self.v_proj.scaling)
    return Q, K, V

class RMSNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return self.weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6))

class DreamAttention(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.q_proj, self.k_proj, self.v_proj = (Linear4bit(dim, dim) for _ in range(3))

    def forward(self, x):
        Q, K, V = apply_lora_qkv(self, x)        # fast path installed on every layer
        return torch.softmax(Q @ K.transpose(-1, -2) / 8, -1) @ V

class DecoderLayer(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.input_layernorm = RMSNorm(dim)
        self.self_attn = DreamAttention(dim)

    def forward(self, h):
        return h + self.self_attn(self.input_layernorm(h))

layer = DecoderLayer()
layer.input_layernorm.to(torch.bfloat16)
# get_peft_model -> prepare_model_for_kbit_training: norms and embeddings upcast to fp32
layer.input_layernorm.to(torch.float32)
hidden_states = torch.randn(1, 6, 32)          # the model's real hidden-state dtype: float32
'''
CELL = '''
out = layer(hidden_states)
'''
EXPECT_ERROR = ("must have the same dtype", "to have the same dtype")
CULPRITS = ["layer.input_layernorm"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "    out = torch.matmul(X, W.t())",
    "    X = X.to(W.dtype)\n    out = torch.matmul(X, W.t())",
)
CLEAN = False
