"""kornia auto-augment `OperationBase.forward` on a CUDA batch: the sampled `batch_prob` gate stays on the CPU.

Source: https://github.com/kornia/kornia/pull/2215
"Fix CUDA failing tests of same device on `Augmentations`" (related to #2212): the new auto-augment
operations (`kornia.augmentation.auto.operations`, used by AutoAugment/RandAugment/TrivialAugment) failed
on CUDA with the same-device error. `OperationBase.forward` samples its parameters with the wrapped
augmentation, whose RNG -- and so `params["batch_prob"]` -- lives on the CPU, then blends
`batch_prob * output + (1 - batch_prob) * input` with the CUDA output. The maintainers' fix: move the
expanded `batch_prob` to `input.device` in `OperationBase.forward`.
Stand-in: `OperationBase` and a `Brightness` operation wrapping a reduced `RandomBrightness` whose
parameters are sampled on the CPU and moved to the input inside its own transform.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class RandomBrightness(nn.Module):
    def __init__(self, brightness=(0.0, 1.0), p=1.0):
        super().__init__()
        self.brightness, self.p = brightness, p

    def forward_parameters(self, batch_shape):
        # kornia samples on the CPU RNG: batch_prob ~ Bernoulli(p), factor ~ U(brightness)
        b = batch_shape[0]
        batch_prob = torch.bernoulli(torch.full((b,), float(self.p)))
        factor = torch.empty(b).uniform_(*self.brightness)
        return {"batch_prob": batch_prob, "brightness_factor": factor}

    def transform_inputs(self, input, params):
        factor = params["brightness_factor"].to(input).view(-1, 1, 1, 1)
        return (input + factor).clamp(0, 1)

class OperationBase(nn.Module):
    def __init__(self, operation, initial_magnitude, temperature=0.1):
        super().__init__()
        self.op = operation
        self.magnitude = initial_magnitude
        self.temperature = temperature

    def forward_parameters(self, batch_shape):
        params = self.op.forward_parameters(batch_shape)
        params["brightness_factor"] = params["brightness_factor"] * self.magnitude
        return params

    def forward(self, input, params=None):
        if params is None:
            params = self.forward_parameters(input.shape)
        batch_prob = params["batch_prob"][(...,) + ((None,) * (len(input.shape) - 1))]
        output = self.op.transform_inputs(input, params)
        return batch_prob * output + (1 - batch_prob) * input

class Brightness(OperationBase):
    def __init__(self, initial_magnitude=0.5, initial_probability=0.5, temperature=0.1):
        super().__init__(RandomBrightness((0.0, 1.0), p=initial_probability), initial_magnitude, temperature)

op = Brightness(initial_magnitude=0.5, initial_probability=0.5).to("cuda:0")
x = torch.rand(4, 3, 16, 16, device="cuda:0")
'''
CELL = '''
out = op(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["op"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('        batch_prob = params["batch_prob"][(...,) + ((None,) * (len(input.shape) - 1))]',
                  '        batch_prob = params["batch_prob"][(...,) + ((None,) * (len(input.shape) - 1))].to(device=input.device)')
CLEAN = False
