"""FSDP2 with MixedPrecisionPolicy(param_dtype=bfloat16): a dataclass input is not cast, its float32 tensor meets the bf16 Linear.

Source: https://github.com/pytorch/pytorch/issues/153077
The user's model takes `Input(x=...)`, a dataclass, and is wrapped with `fully_shard(model,
mp_policy=MixedPrecisionPolicy(param_dtype=torch.bfloat16))`; the forward fails with "mat1 and mat2
must have the same dtype, but got Float and BFloat16". FSDP2's forward pre-hook casts only floating
tensors it finds directly in args/kwargs (`_cast_fp_tensor`), not inside a dataclass (FSDP1's
`_apply_to_tensors` did). Workaround: cast the input's tensor to bf16 yourself.
Stand-in: `fully_shard` that casts the parameters to param_dtype and registers FSDP2's pre-hook
behaviour (top-level tensors only); no process group. CPU (dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import dataclasses
import torch
from torch import nn

@dataclasses.dataclass
class MixedPrecisionPolicy:
    param_dtype: torch.dtype = None
    reduce_dtype: torch.dtype = None

def _cast_fp_tensor(dtype, x):
    if not isinstance(x, torch.Tensor) or not torch.is_floating_point(x) or x.dtype == dtype:
        return x
    return x.to(dtype)

def fully_shard(module, mp_policy=MixedPrecisionPolicy()):
    # stand-in: unsharded params in param_dtype for compute; inputs cast by a pre-hook that only
    # looks at top-level args/kwargs, as FSDP2's FSDPState._pre_forward does
    if mp_policy.param_dtype is not None:
        module.to(mp_policy.param_dtype)
        def pre_forward(mod, args, kwargs):
            args = tuple(_cast_fp_tensor(mp_policy.param_dtype, a) for a in args)
            kwargs = {k: _cast_fp_tensor(mp_policy.param_dtype, v) for k, v in kwargs.items()}
            return args, kwargs
        module.register_forward_pre_hook(pre_forward, with_kwargs=True)
    return module

@dataclasses.dataclass
class Input:
    x: torch.Tensor

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self._layer = nn.Linear(10, 10)

    def forward(self, input: Input):
        return self._layer(input.x)

model = Model()
fully_shard(model, mp_policy=MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.bfloat16))
inp = Input(torch.randn(2, 10))
'''
CELL = '''
out = model(inp)
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["inp.x"]
FIX = "namespace"
REFERENCE_FIX = '''
inp.x = inp.x.to(torch.bfloat16)
'''
REFERENCE_EDIT = None
CLEAN = False
