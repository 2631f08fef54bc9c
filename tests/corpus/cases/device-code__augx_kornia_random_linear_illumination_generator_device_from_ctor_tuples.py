"""kornia `RandomLinearIllumination(p=1.0).to(x.device)(x)`: the generator takes its device from the constructor tuples (CPU).

Source: https://github.com/kornia/kornia/issues/4536
`K.RandomLinearIllumination(p=1.0).to(x.device)(x)` on an MPS (same on CUDA) batch raised "Expected all
tensors to be on the same device, but found at least two devices, mps:0 and cpu!" at
`gradient = sign * gain_factor * gradient` in `LinearIlluminationGenerator.forward`. Cause given in the
report: `forward` takes `_device, _dtype = _extract_device_dtype([self.gain, self.sign])` -- the Python
constructor tuples, i.e. the CPU -- instead of the device that `make_samplers(device, dtype)` received
from `.to(...)`; so `sign` is sampled on the accelerator while `gain_factor` is moved to the CPU and the
ramps are built on the CPU. Fix: use the device/dtype the generator was set to.
Stand-in: kornia's generator base (`set_rng_device_and_dtype` -> `make_samplers`), the linear
illumination generator (vertical ramp only) and the augmentation module, whose `.to()` forwards the
device to its generator as kornia's does.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def _extract_device_dtype(tensor_list):
    device, dtype = None, None
    for t in tensor_list:
        if isinstance(t, torch.Tensor):
            device, dtype = t.device, t.dtype
    return device or torch.device("cpu"), dtype or torch.get_default_dtype()

def _range_bound(factor, name, device=torch.device("cpu"), dtype=torch.float32):
    return torch.as_tensor(factor, device=device, dtype=dtype)

def _adapted_uniform(shape, bounds):
    u = torch.rand(shape, device=bounds.device, dtype=bounds.dtype)
    return bounds.amin() + u * (bounds.amax() - bounds.amin())

class RandomGeneratorBase(nn.Module):
    def __init__(self):
        super().__init__()
        self.device, self.dtype = torch.device("cpu"), torch.get_default_dtype()

    def set_rng_device_and_dtype(self, device, dtype):
        self.device, self.dtype = device, dtype
        self.make_samplers(device, dtype)

class LinearIlluminationGenerator(RandomGeneratorBase):
    def __init__(self, gain, sign):
        super().__init__()
        self.gain, self.sign = gain, sign

    def make_samplers(self, device, dtype):
        self.gain_bounds = _range_bound(self.gain, "gain", device=device, dtype=dtype)
        self.sign_bounds = _range_bound(self.sign, "sign", device=device, dtype=dtype)

    def forward(self, batch_shape, same_on_batch=False):
        batch_size, channels, height, width = batch_shape
        _device, _dtype = _extract_device_dtype([self.gain, self.sign])
        sign = torch.where(_adapted_uniform((batch_size, 1, 1, 1), self.sign_bounds) >= 0.0, 1.0, -1.0)
        gain_factor = _adapted_uniform((batch_size, 1, 1, 1), self.gain_bounds).to(device=_device, dtype=_dtype)
        gradient = torch.linspace(0, 1, height, device=_device, dtype=_dtype).view(1, 1, height, 1)
        gradient = gradient.expand(batch_size, channels, height, width)
        gradient = sign * gain_factor * gradient
        return {"gradient": gradient}

class RandomLinearIllumination(nn.Module):
    def __init__(self, gain=(0.01, 0.2), sign=(-1.0, 1.0), p=0.5):
        super().__init__()
        self.p = p
        self._param_generator = LinearIlluminationGenerator(gain, sign)
        self._param_generator.set_rng_device_and_dtype(torch.device("cpu"), torch.get_default_dtype())

    def to(self, *args, **kwargs):
        device, dtype, _, _ = torch._C._nn._parse_to(*args, **kwargs)
        self._param_generator.set_rng_device_and_dtype(device or self._param_generator.device,
                                                       dtype or self._param_generator.dtype)
        return super().to(*args, **kwargs)

    def forward(self, input):
        params = self._param_generator(input.shape)
        return (input + params["gradient"]).clamp(0, 1)

x = torch.rand(8, 3, 256, 256, device="cuda:0")
aug = RandomLinearIllumination(p=1.0).to(x.device)
'''
CELL = '''
out = aug(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["aug._param_generator"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        _device, _dtype = _extract_device_dtype([self.gain, self.sign])",
                  "        _device, _dtype = self.device, self.dtype")
CLEAN = False
