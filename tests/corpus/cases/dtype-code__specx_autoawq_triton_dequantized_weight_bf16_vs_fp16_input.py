"""AutoAWQ GEMM on the Triton path with a bf16 model: the dequantized weight keeps the bf16 scales' dtype while the input was cast to fp16.

Source: https://github.com/casper-hansen/AutoAWQ/pull/740
"fix dtype mismatch": "Some models are original BF16 like llama3-8B, but the triton gemm path
dequantize weight to float16 which will mismatch the data dtype." In `WQLinearMMFunction.forward` the
input is cast with `x = x.to(torch.float16)`, and for long prompts (`x.shape[0] * x.shape[1] >= 1024`)
the weight is rebuilt by `awq_dequantize_triton(qweight, scales, qzeros)`, whose result takes
`scales.dtype` (bfloat16 for a bf16 checkpoint); `torch.matmul(x, out)` then fails on the dtype pair.
The merged fix casts the dequantized weight: `torch.matmul(x, out.to(x.dtype))`.
Stand-ins: AutoAWQ's `WQLinearMMFunction` (Triton branch only), `WQLinear_GEMM`, and a torch version
of `awq_dequantize_triton` (unpacks the int4 nibbles, result in `scales.dtype`); a one-layer model.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn as nn
from torch.autograd import Function

def awq_dequantize_triton(qweight, scales, zeros):
    shifts = torch.arange(0, 32, 4, device=qweight.device, dtype=torch.int32)
    in_features, out_features = qweight.shape[0], qweight.shape[1] * 8
    group_size = in_features // scales.shape[0]
    iweights = ((qweight[:, :, None] >> shifts) & 0xF).reshape(in_features, out_features)
    izeros = ((zeros[:, :, None] >> shifts) & 0xF).reshape(scales.shape[0], out_features)
    result = torch.empty(in_features, out_features, device=qweight.device, dtype=scales.dtype)
    result.copy_((iweights - izeros.repeat_interleave(group_size, 0)) * scales.repeat_interleave(group_size, 0))
    return result

class WQLinearMMFunction(Function):
    @staticmethod
    def forward(ctx, x, qweight, qzeros, scales, w_bit=4, group_size=128, bias=None, out_features=0):
        ctx.save_for_backward(x, qweight, qzeros, scales, bias)
        ctx.out_features = out_features
        out_shape = x.shape[:-1] + (out_features,)
        x = x.to(torch.float16)
        FP16_MATMUL_HEURISTIC_CONDITION = x.shape[0] * x.shape[1] >= 1024
        if FP16_MATMUL_HEURISTIC_CONDITION:
            out = awq_dequantize_triton(qweight, scales, qzeros)
            out = torch.matmul(x, out)
        else:
            raise NotImplementedError("awq_gemm_triton kernel")
        out = out + bias if bias is not None else out
        out = out.reshape(out_shape)
        if len(out.shape) == 2:
            out = out.unsqueeze(0)
        return out

class WQLinear_GEMM(nn.Module):
    def __init__(self, w_bit, group_size, in_features, out_features, bias, dev, dtype=torch.float16):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.w_bit, self.group_size = w_bit, group_size
        pack = 32 // w_bit
        self.register_buffer("qweight", torch.randint(0, 2**31 - 1, (in_features, out_features // pack),
                                                      dtype=torch.int32, device=dev))
        self.register_buffer("qzeros", torch.randint(0, 2**31 - 1, (in_features // group_size, out_features // pack),
                                                     dtype=torch.int32, device=dev))
        self.register_buffer("scales", torch.rand(in_features // group_size, out_features, dtype=dtype, device=dev) / 100)
        self.bias = None

    def forward(self, x):
        return WQLinearMMFunction.apply(x, self.qweight, self.qzeros, self.scales,
                                        self.w_bit, self.group_size, self.bias, self.out_features)

class LlamaForCausalLM(nn.Module):
    def __init__(self, vocab=128, hidden=128, dtype=torch.bfloat16):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden, dtype=dtype)
        self.q_proj = WQLinear_GEMM(4, 64, hidden, hidden, False, "cpu", dtype=dtype)

    def forward(self, input_ids):
        return self.q_proj(self.embed_tokens(input_ids))

torch_dtype = torch.bfloat16          # llama3-8B AWQ checkpoint loaded in its original bf16
model = LlamaForCausalLM(dtype=torch_dtype).eval()
input_ids = torch.randint(0, 128, (1, 1024))   # a long prompt: prefill takes the dequantize + matmul path
'''
CELL = '''
with torch.no_grad():
    out = model(input_ids)
'''
EXPECT_ERROR = ("expected m1 and m2 to have the same dtype", "expected mat1 and mat2 to have the same dtype")
CULPRITS = ["WQLinearMMFunction"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("out = torch.matmul(x, out)", "out = torch.matmul(x, out.to(x.dtype))")
CLEAN = False
