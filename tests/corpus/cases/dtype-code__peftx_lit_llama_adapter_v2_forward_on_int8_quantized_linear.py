"""lit-llama adapter v2 with `--quantize llm.int8`: the adapter forward feeds the int8 weight of `Linear8bitLt` to `F.linear`.

Source: https://github.com/Lightning-AI/lit-llama/pull/314
"llm.int8() quantization breaks for adapter-v2-finetuned models, giving a
`F.linear(input, self.weight, self.bias) + self.adapter_bias` RuntimeError: expected mat1 and mat2
to have the same dtype, but got: c10::BFloat16 != signed char". Adapter v2 rebinds `forward` of
every `nn.Linear` to `adapter_v2_new_forward`; under `quantization("llm.int8")` those layers are
lit-llama's `Linear8bitLt` (a `bnb.nn.Linear8bitLt` subclass), whose `weight` holds the int8 `CB`
matrix (scales in `weight.SCB`), so the new forward bypasses bitsandbytes' int8 matmul. The fix
(lit-llama#323, linked there as "the fix we were looking for") converts the `Linear8bitLt` weight
from int8 back to the input/adapter dtype before `F.linear`.
Stand-ins (CPU; dtype bug): lit-llama's `Linear8bitLt` (weight = int8 CB with a per-row SCB),
`adapter_v2_new_forward` / `add_adapter_v2_parameters_to_linear_layers` as in lit_llama/adapter_v2.py,
and a tiny LLaMA in bfloat16.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn as nn
from torch import Tensor
from torch.nn import functional as F

class Linear8bitLt(nn.Linear):
    """Stand-in for lit_llama.quantization.Linear8bitLt (bnb.nn.Linear8bitLt subclass): the weight is
    quantized at construction; `weight.data` is the int8 CB matrix, `weight.SCB` the row scales."""
    def __init__(self, in_features, out_features, bias=True):
        super().__init__(in_features, out_features, bias=bias)
        self.weight.requires_grad_(False)           # Int8Params(requires_grad=False, has_fp16_weights=False)
        self._quantize_weight(self.weight.data)

    def _quantize_weight(self, weight):
        SCB = weight.abs().amax(dim=1).float()
        CB = (weight / SCB[:, None] * 127).round().to(torch.int8)
        self.weight.data = CB
        setattr(self.weight, "CB", CB)
        setattr(self.weight, "SCB", SCB)

    def forward(self, x):                       # bnb.matmul(x, self.weight, state=...)
        W = (self.weight.CB.float() * self.weight.SCB[:, None] / 127).to(x.dtype)
        return F.linear(x, W, None if self.bias is None else self.bias.to(x.dtype))

def adapter_v2_new_forward(self, input: Tensor) -> Tensor:
    return self.adapter_scale * (
        F.linear(input, self.weight, self.bias) + self.adapter_bias
    )

def adapter_v2_linear_with_bias_and_scale(layer):
    layer.adapter_bias = torch.nn.Parameter(torch.zeros(layer.weight.shape[0]), requires_grad=True)
    layer.adapter_scale = torch.nn.Parameter(torch.ones(layer.weight.shape[0]), requires_grad=True)
    bound_method = adapter_v2_new_forward.__get__(layer, layer.__class__)
    setattr(layer, 'forward', bound_method)
    return layer

def add_adapter_v2_parameters_to_linear_layers(model):
    for module in model.modules():
        if isinstance(module, nn.Linear):
            adapter_v2_linear_with_bias_and_scale(module)

class RMSNorm(nn.Module):
    def __init__(self, size, eps=1e-5):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(size))
        self.eps = eps

    def forward(self, x):
        norm_x = torch.mean(x * x, dim=-1, keepdim=True)
        return self.scale * x * torch.rsqrt(norm_x + self.eps)

class Block(nn.Module):
    def __init__(self, n_embd, Linear):
        super().__init__()
        self.rms_1 = RMSNorm(n_embd)
        self.c_attn = Linear(n_embd, n_embd, bias=False)
        self.rms_2 = RMSNorm(n_embd)
        self.c_fc = Linear(n_embd, 2 * n_embd, bias=False)
        self.c_proj = Linear(2 * n_embd, n_embd, bias=False)

    def forward(self, x):
        x = x + self.c_attn(self.rms_1(x))
        return x + self.c_proj(F.silu(self.c_fc(self.rms_2(x))))

class LLaMA(nn.Module):
    def __init__(self, vocab_size=100, n_embd=32, n_layer=2, Linear=nn.Linear):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.h = nn.ModuleList([Block(n_embd, Linear) for _ in range(n_layer)])
        self.ln_f = RMSNorm(n_embd)
        self.lm_head = Linear(n_embd, vocab_size, bias=False)

    def forward(self, idx):
        x = self.wte(idx)
        for block in self.h:
            x = block(x)
        return self.lm_head(self.ln_f(x))

# generate/adapter_v2.py --quantize llm.int8: with quantization("llm.int8"), nn.Linear is Linear8bitLt
model = LLaMA(Linear=Linear8bitLt)
add_adapter_v2_parameters_to_linear_layers(model)
model = model.to(torch.bfloat16)                     # fabric precision bf16 (int8 weights stay int8)
model.eval()
encoded = torch.randint(0, 100, (1, 8))              # tokenizer.encode(prompt)
'''
CELL = '''
with torch.no_grad():
    logits = model(encoded)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "should be the same")
CULPRITS = ["adapter_v2_new_forward"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """def adapter_v2_new_forward(self, input: Tensor) -> Tensor:
    return self.adapter_scale * (
        F.linear(input, self.weight, self.bias) + self.adapter_bias
    )""",
    """def adapter_v2_new_forward(self, input: Tensor) -> Tensor:
    weight = self.weight
    if isinstance(self, Linear8bitLt):          # int8 CB -> the input / adapter dtype
        weight = (weight.CB.float() * weight.SCB[:, None] / 127).to(input.dtype)
    return self.adapter_scale * (
        F.linear(input, weight, self.bias) + self.adapter_bias
    )""",
)
CLEAN = False
