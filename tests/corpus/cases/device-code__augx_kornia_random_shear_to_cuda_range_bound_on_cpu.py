"""kornia `RandomShear(5.0).to("cuda")`: the shear sampler stacks a CPU x-range with a CUDA y-range.

Source: https://github.com/kornia/kornia/issues/4415
`K.RandomShear(5.0).to("cuda")` and `K.RandomAffine(degrees=0., shear=(5., 5.)).to("cuda")` fail while
the module is being moved, before any input is seen. `ShearGenerator.make_samplers` builds its range by
stacking two values: the x half comes from `_range_bound(...)`, which places its result on the CPU
unless it is handed a device -- and the call site does not hand it one -- while the y half, for a float
or 2-tuple `shear`, is `torch.tensor([0, 0], device=device, dtype=dtype)`, already on the requested
device; `torch.stack` of the two then raises. Fix (PRs #4507/#4519): pass the requested `device` and
`dtype` to the shear `_range_bound` calls.
Stand-in: `_range_bound`, a reduced `ShearGenerator` and `RandomShear`, whose `.to()` re-creates the
samplers on the new device as kornia's augmentation base does.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def _range_bound(factor, name, center=0.0, bounds=(0, float("inf")),
                 device=torch.device("cpu"), dtype=torch.get_default_dtype()):
    if isinstance(factor, (int, float)):
        factor = [center - factor, center + factor]
    return torch.as_tensor(factor, device=device, dtype=dtype).clamp(bounds[0], bounds[1])

class ShearGenerator(nn.Module):
    def __init__(self, shear):
        super().__init__()
        self.shear = shear

    def set_rng_device_and_dtype(self, device, dtype):
        self.device, self.dtype = device, dtype
        self.make_samplers(device, dtype)

    def make_samplers(self, device, dtype):
        shear = self.shear
        if isinstance(shear, (int, float)) or len(shear) == 2:
            _shear = torch.stack([
                _range_bound(shear, "shear-x", 0, (-360, 360)),
                torch.tensor([0, 0], device=device, dtype=dtype),
            ])
        else:
            _shear = torch.stack([
                _range_bound(shear[:2], "shear-x", 0, (-360, 360)),
                _range_bound(shear[2:], "shear-y", 0, (-360, 360)),
            ])
        self._shear = _shear

class RandomShear(nn.Module):
    def __init__(self, shear, p=0.5):
        super().__init__()
        self.p = p
        self._param_generator = ShearGenerator(shear)
        self._param_generator.set_rng_device_and_dtype(torch.device("cpu"), torch.get_default_dtype())

    def to(self, *args, **kwargs):
        device, dtype, _, _ = torch._C._nn._parse_to(*args, **kwargs)
        self._param_generator.set_rng_device_and_dtype(device or self._param_generator.device,
                                                       dtype or self._param_generator.dtype)
        return super().to(*args, **kwargs)

aug = RandomShear(5.0)
'''
CELL = '''
aug = aug.to("cuda:0")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["aug._param_generator"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('                _range_bound(shear, "shear-x", 0, (-360, 360)),',
                  '                _range_bound(shear, "shear-x", 0, (-360, 360), device=device, dtype=dtype),')
CLEAN = False
