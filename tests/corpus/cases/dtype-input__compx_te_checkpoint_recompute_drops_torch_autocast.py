"""TransformerEngine `te.checkpoint` under a bf16 `torch.autocast`: the recompute in backward runs without autocast, "expected mat1 and mat2 to have the same dtype".

Source: https://github.com/NVIDIA/TransformerEngine/issues/787
The user's model mixes `torch.nn.Linear` and `te.Linear` layers; the forward runs
`te.checkpoint(model, model_input)` inside `torch.cuda.amp.autocast(dtype=torch.bfloat16)` and
`te.fp8_autocast`; `loss.backward()` failed with "expected mat1 and mat2 to have the same dtype, but
got: c10::BFloat16 != float": `te.checkpoint` restored the fp8 state for the recomputation but not
torch's autocast, so a plain `nn.Linear` saw a bf16 activation with its float32 weight. Fixed in
TE by PR #791 (the recompute re-enters the forward's `torch.amp.autocast`). Stand-ins: a reentrant
checkpoint Function keeping TE's structure, a te.Linear computing in bf16; CPU autocast plays CUDA's.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn.functional as F

class te:
    class Linear(torch.nn.Module):                 # TE GEMM: bf16/fp8 compute, bf16 output
        def __init__(self, i, o):
            super().__init__()
            self.weight = torch.nn.Parameter(torch.randn(o, i) * 0.05)

        def forward(self, x):
            return F.linear(x.to(torch.bfloat16), self.weight.to(torch.bfloat16))

    class _CheckpointFunction(torch.autograd.Function):
        @staticmethod
        def forward(ctx, run_function, *args):
            ctx.run_function = run_function
            ctx.autocast_kwargs = {"enabled": torch.is_autocast_enabled("cpu"),
                                   "dtype": torch.get_autocast_dtype("cpu")}
            ctx.save_for_backward(*args)
            with torch.no_grad():
                return run_function(*args)

        @staticmethod
        def backward(ctx, *grads):
            inputs = [t.detach().requires_grad_(t.requires_grad) for t in ctx.saved_tensors]
            with torch.enable_grad():               # fp8 state restored here; torch autocast is not
                outputs = ctx.run_function(*inputs)
            torch.autograd.backward(outputs, grads)
            return (None,) + tuple(t.grad for t in inputs)

    @staticmethod
    def checkpoint(function, *args, use_reentrant=False):
        return te._CheckpointFunction.apply(function, *args)

hidden_dim, num_layers = 64, 2
criterion = torch.nn.MSELoss()
model = torch.nn.Sequential()
model.append(torch.nn.Linear(hidden_dim, hidden_dim))
for _ in range(num_layers):
    model.append(te.Linear(hidden_dim, hidden_dim))
    model.append(torch.nn.Linear(hidden_dim, hidden_dim))
model_input = torch.randn(16, hidden_dim, requires_grad=True)
target = torch.randn(16, hidden_dim)
'''
CELL = '''
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    output = te.checkpoint(model, model_input, use_reentrant=False)
loss = criterion(output.float(), target)
loss.backward()
'''
EXPECT_ERROR = ("same dtype", "expected scalar type")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            with torch.enable_grad():               # fp8 state restored here; torch autocast is not",
                  "            with torch.enable_grad(), torch.autocast(\"cpu\", **ctx.autocast_kwargs):")
CLEAN = False
