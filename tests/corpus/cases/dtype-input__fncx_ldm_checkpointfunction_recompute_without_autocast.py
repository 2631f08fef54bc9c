"""Latent-diffusion's own `CheckpointFunction` recomputes the block in backward without autocast: the half-precision activation meets fp32 weights.

Source: https://github.com/CompVis/stable-diffusion/issues/281
"gradient checkpointing incompatible with mixed precision?": with `use_checkpoint: True` and
`precision=16`, training fails in `loss.backward()`; disabling checkpointing makes it run. The ldm
`checkpoint()` helper goes through a custom `torch.autograd.Function` whose `backward` re-runs the
block under `torch.enable_grad()` only, so autocast is off during the recompute while the saved input
is already low precision. The fix posted in the thread decorates `CheckpointFunction.forward` with
`custom_fwd(cast_inputs=torch.float32)` (and `backward` with `custom_bwd`).
Stand-in: `CheckpointFunction`/`checkpoint` are ldm's (ldm/modules/diffusionmodules/util.py); the
transformer block is reduced to LayerNorm + Linear; CPU autocast with bfloat16 stands in for CUDA
fp16 autocast, so the decorator is `torch.amp.custom_fwd(device_type="cpu", ...)` here.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn

def checkpoint(func, inputs, params, flag):
    if flag:
        args = tuple(inputs) + tuple(params)
        return CheckpointFunction.apply(func, len(inputs), *args)
    else:
        return func(*inputs)

class CheckpointFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, run_function, length, *args):
        ctx.run_function = run_function
        ctx.input_tensors = list(args[:length])
        ctx.input_params = list(args[length:])

        with torch.no_grad():
            output_tensors = ctx.run_function(*ctx.input_tensors)
        return output_tensors

    @staticmethod
    def backward(ctx, *output_grads):
        ctx.input_tensors = [x.detach().requires_grad_(True) for x in ctx.input_tensors]
        with torch.enable_grad():
            # Fixes a bug where the first op in run_function modifies the
            # Tensor storage in place, which is not allowed for detach()'d
            # Tensors.
            shallow_copies = [x.view_as(x) for x in ctx.input_tensors]
            output_tensors = ctx.run_function(*shallow_copies)
        input_grads = torch.autograd.grad(
            output_tensors,
            ctx.input_tensors + ctx.input_params,
            output_grads,
            allow_unused=True,
        )
        del ctx.input_tensors
        del ctx.input_params
        del output_tensors
        return (None, None) + input_grads

class BasicTransformerBlock(nn.Module):
    def __init__(self, dim, checkpoint=True):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn1 = nn.Linear(dim, dim)
        self.checkpoint = checkpoint

    def forward(self, x, context=None):
        return checkpoint(self._forward, (x,), self.parameters(), self.checkpoint)

    def _forward(self, x, context=None):
        x = self.attn1(self.norm1(x)) + x
        return x

class TinyUNet(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.proj_in = nn.Linear(dim, dim)
        self.block = BasicTransformerBlock(dim, checkpoint=True)   # use_checkpoint: True
        self.proj_out = nn.Linear(dim, dim)

    def forward(self, x):
        return self.proj_out(self.block(self.proj_in(x)))

model = TinyUNet()
x = torch.randn(4, 16)
target = torch.randn(4, 16)
'''
CELL = '''
with torch.autocast("cpu", dtype=torch.bfloat16):      # Trainer(precision=16)
    out = model(x)
    loss = (out.float() - target).pow(2).mean()
loss.backward()
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected scalar type")
CULPRITS = ["CheckpointFunction"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "    @staticmethod\n    def forward(ctx, run_function, length, *args):",
    "    @staticmethod\n    @torch.amp.custom_fwd(device_type=\"cpu\", cast_inputs=torch.float32)\n"
    "    def forward(ctx, run_function, length, *args):",
)
CLEAN = False
