"""Unsloth QLoRA in float16: `LoRA_MLP.backward` multiplies fp16 grads with bf16 dequantized weights into an fp16 `out=`.

Source: https://github.com/unslothai/unsloth/pull/4005
"Fix backward pass dtype mismatch in `fast_lora.py` when training with `dtype=torch.float16` and
`load_in_4bit=True`. `fast_dequantize()` returns tensors in `quant_state.dtype` (typically bfloat16),
but activations are float16. The subsequent `torch.matmul(..., out=X)` and `addmm_()` calls require
matching dtypes" ("when a bfloat16 model is loaded with dtype=torch.float16, the quant_state retains
bfloat16"). Autocast casts the plain matmuls of the forward, but not an `out=`/in-place op. The fix
adds `if W.dtype != dtype: W = W.to(dtype)` after each `fast_dequantize()` in the backward.
Stand-ins (CPU autocast in float16; dtype bug): a 4-bit weight with its `quant_state`,
`fast_dequantize`, `matmul_lora`, and unsloth's fused `LoRA_MLP` autograd Function (SwiGLU),
with the backward as before the fix.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class QuantState:
    def __init__(self, absmax, shape, dtype, blocksize=64):
        self.absmax, self.shape, self.dtype, self.blocksize = absmax, shape, dtype, blocksize

def quantize_4bit(w, quant_dtype, blocksize=64):
    blocks = w.float().reshape(-1, blocksize)
    absmax = blocks.abs().amax(dim=1)
    codes = (blocks / absmax[:, None] * 7).round().add(8).to(torch.uint8)
    return codes.reshape(-1), QuantState(absmax, tuple(w.shape), quant_dtype, blocksize)

def fast_dequantize(W, quant_state):
    """Returns the weight in quant_state.dtype, whatever the compute dtype."""
    deq = (W.reshape(-1, quant_state.blocksize).float() - 8) / 7 * quant_state.absmax[:, None]
    return deq.reshape(quant_state.shape).to(quant_state.dtype)

def matmul_lora(X, W, W_quant, A, B, s, transpose=False):
    dtype = X.dtype
    W = fast_dequantize(W, W_quant)
    out = torch.matmul(X, W if transpose else W.t())          # autocast casts this one
    if transpose:                                              # dY @ (s * B @ A)
        return out + s * torch.matmul(torch.matmul(X, B.to(dtype)), A.to(dtype))
    return out + s * torch.matmul(torch.matmul(X, A.t().to(dtype)), B.t().to(dtype))

class LoRA_MLP(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type="cpu")
    def forward(ctx, X, gateW, gateW_quant, gateA, gateB, gateS, upW, upW_quant, upA, upB, upS,
                downW, downW_quant, downA, downB, downS, inplace=True):
        e = matmul_lora(X, gateW, gateW_quant, gateA, gateB, gateS)
        g = matmul_lora(X, upW, upW_quant, upA, upB, upS)
        h = F.silu(e) * g
        i = matmul_lora(h, downW, downW_quant, downA, downB, downS)
        ctx.custom_saved_tensors = (gateW, gateW_quant, gateS, upW, upW_quant, upS, downW, downW_quant, downS)
        ctx.save_for_backward(gateA, gateB, upA, upB, downA, downB, X, e, g)
        ctx.inplace = inplace
        return i

    @staticmethod
    @torch.amp.custom_bwd(device_type="cpu")
    def backward(ctx, dY):
        gateW, gateW_quant, gateS, upW, upW_quant, upS, downW, downW_quant, downS = ctx.custom_saved_tensors
        gateA, gateB, upA, upB, downA, downB, X, e, g = ctx.saved_tensors
        batch, seq_len, hd = X.shape
        dY = dY.reshape(-1, dY.shape[-1])
        X = X.reshape(-1, X.shape[-1]).clone()
        e = e.reshape(-1, e.shape[-1])
        g = g.reshape(-1, g.shape[-1])
        dtype = X.dtype

        DW = matmul_lora(dY, downW, downW_quant, downA, downB, downS, transpose=True)
        se = torch.sigmoid(e)
        f = e * se
        df = DW * f
        de = DW * g * se * (1 + e * (1 - se))

        upW = fast_dequantize(upW, upW_quant)
        dX = torch.matmul(df, upW, out=X if ctx.inplace else None)
        del upW
        gateW = fast_dequantize(gateW, gateW_quant)
        dX.addmm_(de, gateW)
        del gateW
        return (dX.view(batch, seq_len, hd),) + (None,) * 16

class Linear4bit(nn.Module):
    def __init__(self, in_features, out_features, quant_dtype):
        super().__init__()
        codes, quant_state = quantize_4bit(torch.randn(out_features, in_features) * 0.05, quant_dtype)
        self.weight = nn.Parameter(codes, requires_grad=False)
        self.weight.quant_state = quant_state

class LoraLinear(nn.Module):
    def __init__(self, base_layer, r=8, lora_alpha=16):
        super().__init__()
        out_f, in_f = base_layer.weight.quant_state.shape
        self.base_layer = base_layer
        self.lora_A = nn.Linear(in_f, r, bias=False)
        self.lora_B = nn.Linear(r, out_f, bias=False)
        nn.init.zeros_(self.lora_B.weight)
        self.scaling = lora_alpha / r

def get_lora_parameters(proj):
    W = proj.base_layer.weight
    return W, W.quant_state, proj.lora_A.weight, proj.lora_B.weight, proj.scaling

class LlamaMLP(nn.Module):
    def __init__(self, d, quant_dtype):
        super().__init__()
        self.gate_proj = LoraLinear(Linear4bit(d, 2 * d, quant_dtype))
        self.up_proj = LoraLinear(Linear4bit(d, 2 * d, quant_dtype))
        self.down_proj = LoraLinear(Linear4bit(2 * d, d, quant_dtype))

    def forward(self, X):                           # apply_lora_mlp_swiglu
        return LoRA_MLP.apply(X, *get_lora_parameters(self.gate_proj), *get_lora_parameters(self.up_proj),
                              *get_lora_parameters(self.down_proj))

class FastLanguageModel:
    @staticmethod
    def from_pretrained(model_name, dtype=None, load_in_4bit=True, d=64):
        model = LlamaMLP(d, quant_dtype=torch.bfloat16)     # bnb-4bit checkpoint saved from a bf16 model
        model.dtype = dtype or torch.bfloat16
        return model, None

model, tokenizer = FastLanguageModel.from_pretrained("unsloth/Llama-3.2-1B-bnb-4bit", dtype=torch.float16,
                                                     load_in_4bit=True)
hidden_states = torch.randn(2, 8, 64, dtype=torch.float16, requires_grad=True)
with torch.autocast("cpu", dtype=torch.float16):             # Trainer(fp16=True)
    out = model(hidden_states)
    loss = out.float().pow(2).mean()
'''
CELL = '''
loss.backward()
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "should be the same")
CULPRITS = ["LoRA_MLP"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """        upW = fast_dequantize(upW, upW_quant)
        dX = torch.matmul(df, upW, out=X if ctx.inplace else None)
        del upW
        gateW = fast_dequantize(gateW, gateW_quant)
""",
    """        upW = fast_dequantize(upW, upW_quant)
        if upW.dtype != dtype:
            upW = upW.to(dtype)
        dX = torch.matmul(df, upW, out=X if ctx.inplace else None)
        del upW
        gateW = fast_dequantize(gateW, gateW_quant)
        if gateW.dtype != dtype:
            gateW = gateW.to(dtype)
""",
)
CLEAN = False
