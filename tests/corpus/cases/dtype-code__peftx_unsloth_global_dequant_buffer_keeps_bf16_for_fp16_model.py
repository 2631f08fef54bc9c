"""Unsloth: a second 4-bit LoRA model loaded in float16 reuses the global dequantize buffer allocated in bfloat16.

Source: https://github.com/unslothai/unsloth/pull/4026
"Fix `WEIGHT_BUFFERS` dtype going stale when multiple 4-bit models are loaded with different dtypes in
the same process. The global dequantize buffer checks whether its size is sufficient (`resize_`), but
never whether its dtype still matches the current model - so loading a bfloat16 model followed by a
float16 model causes `torch.matmul` to crash." The repro loads `unsloth/Llama-3.2-1B` 4-bit with
`dtype=None` (bf16), runs it, deletes it, loads it again with `dtype=torch.float16` and runs it. The
fix re-allocates the buffer when `WEIGHT_BUFFER.dtype != dtype`.
Stand-ins (CPU; dtype bug): a 4-bit weight with its `quant_state` (absmax, shape, dtype), unsloth's
`fast_dequantize` with the module-level `WEIGHT_BUFFERS`/`ABSMAX_BUFFERS` as before the fix,
`matmul_lora`, a LoRA-wrapped 4-bit MLP and a tiny `FastLanguageModel.from_pretrained`.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

WEIGHT_BUFFERS = [None]          # one per device index
ABSMAX_BUFFERS = [None]

class QuantState:
    def __init__(self, absmax, shape, dtype, blocksize=64):
        self.absmax, self.shape, self.dtype, self.blocksize = absmax, shape, dtype, blocksize

def quantize_4bit(w, compute_dtype, blocksize=64):
    blocks = w.float().reshape(-1, blocksize)
    absmax = blocks.abs().amax(dim=1)
    codes = (blocks / absmax[:, None] * 7).round().add(8).to(torch.uint8)
    return codes.reshape(-1), QuantState(absmax, tuple(w.shape), compute_dtype, blocksize)

def fast_dequantize(W, quant_state=None, out=None, use_global_buffer=False):
    absmax, shape, dtype = quant_state.absmax, quant_state.shape, quant_state.dtype
    blocksize = quant_state.blocksize
    device_index = W.device.index or 0
    n_elements_absmax = absmax.numel()
    if use_global_buffer:
        # Use same buffers for faster inference
        size = shape[0] * shape[1]
        WEIGHT_BUFFER = WEIGHT_BUFFERS[device_index]
        ABSMAX_BUFFER = ABSMAX_BUFFERS[device_index]
        if WEIGHT_BUFFER is None:
            WEIGHT_BUFFERS[device_index] = WEIGHT_BUFFER = torch.empty(size, dtype=dtype, device=W.device)
            ABSMAX_BUFFERS[device_index] = ABSMAX_BUFFER = torch.empty(n_elements_absmax, dtype=torch.float32, device=W.device)
        if size > WEIGHT_BUFFER.numel():
            WEIGHT_BUFFER.resize_(size)
        if n_elements_absmax > ABSMAX_BUFFER.numel():
            ABSMAX_BUFFER.resize_(n_elements_absmax)
        out = WEIGHT_BUFFER[:size].view(shape)
        out_absmax = ABSMAX_BUFFER[:n_elements_absmax]
    else:
        out = torch.empty(shape, dtype=dtype, device=W.device)
        out_absmax = torch.empty(n_elements_absmax, dtype=torch.float32, device=W.device)
    out_absmax.copy_(absmax)                                      # dequantize the statistics
    deq = (W.reshape(-1, blocksize).float() - 8) / 7 * out_absmax[:, None]
    out.copy_(deq.reshape(shape))                                 # cdequantize_blockwise kernel
    return out

def matmul_lora(X, W, W_quant, A, B, s):
    dtype = X.dtype
    W = fast_dequantize(W, W_quant, use_global_buffer=True)
    out = torch.matmul(X, W.t())
    if A is not None:
        XA = torch.matmul(X, A.t().to(dtype))
        out = out + s * torch.matmul(XA, B.t().to(dtype))
    return out

class Linear4bit(nn.Module):
    def __init__(self, in_features, out_features, compute_dtype):
        super().__init__()
        codes, quant_state = quantize_4bit(torch.randn(out_features, in_features) * 0.05, compute_dtype)
        self.weight = nn.Parameter(codes, requires_grad=False)
        self.weight.quant_state = quant_state

class LoraLinear(nn.Module):
    """peft LoRA layer over a 4-bit base, with unsloth's fast forward."""
    def __init__(self, base_layer, r=8, lora_alpha=16):
        super().__init__()
        out_f, in_f = base_layer.weight.quant_state.shape
        self.base_layer = base_layer
        self.lora_A = nn.Linear(in_f, r, bias=False)
        self.lora_B = nn.Linear(r, out_f, bias=False)
        nn.init.zeros_(self.lora_B.weight)
        self.scaling = lora_alpha / r

    def forward(self, X):
        W = self.base_layer.weight
        return matmul_lora(X, W, W.quant_state, self.lora_A.weight, self.lora_B.weight, self.scaling)

class LlamaMLP(nn.Module):
    def __init__(self, d, compute_dtype):
        super().__init__()
        self.up_proj = LoraLinear(Linear4bit(d, 4 * d, compute_dtype))
        self.down_proj = LoraLinear(Linear4bit(4 * d, d, compute_dtype))

    def forward(self, x):
        return self.down_proj(torch.relu(self.up_proj(x)))

class FastLanguageModel:
    @staticmethod
    def from_pretrained(model_name, dtype=None, load_in_4bit=True, d=64):
        dtype = dtype or torch.bfloat16          # dtype=None -> bfloat16 on this GPU
        model = LlamaMLP(d, dtype)
        model.dtype = dtype
        return model, None

# Step 1: load bf16
m1, t1 = FastLanguageModel.from_pretrained("unsloth/Llama-3.2-1B", dtype=None, load_in_4bit=True)
inp1 = torch.randn(2, 16, 64, dtype=m1.dtype)
with torch.no_grad():
    m1(inp1)                                      # OK - buffer allocated as bf16
del m1

# Step 2: load fp16 in the same process
m2, t2 = FastLanguageModel.from_pretrained("unsloth/Llama-3.2-1B", dtype=torch.float16, load_in_4bit=True)
inp = torch.randn(2, 16, 64, dtype=m2.dtype)
'''
CELL = '''
with torch.no_grad():
    out = m2(inp)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "should be the same")
CULPRITS = ["WEIGHT_BUFFERS"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        if WEIGHT_BUFFER is None:\n",
    "        if WEIGHT_BUFFER is None or WEIGHT_BUFFER.dtype != dtype:\n",
)
CLEAN = False
