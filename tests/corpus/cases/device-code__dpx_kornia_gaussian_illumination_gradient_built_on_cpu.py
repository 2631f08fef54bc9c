"""kornia RandomGaussianIllumination on a CUDA image batch: the gradient map is built on the CPU.

Source: https://github.com/kornia/kornia/pull/3457
The reporter ran `aug = K.RandomGaussianIllumination(gain=0.1, p=1.0)` on `img = torch.rand(1, 3,
256, 256).to(device)` and got "Expected all tensors to be on the same device ... cuda:0 and cpu!":
the augmentation builds its Gaussian gradient map from sampled parameters on the CPU and adds it to
the CUDA input. The PR casts the gradient with `.to(input.device, input.dtype)` before the addition.
Stand-in: the augmentation reduced to parameter sampling and `apply_transform` (kornia structure).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class RandomGaussianIllumination(nn.Module):
    """kornia.augmentation.RandomGaussianIllumination, reduced."""
    def __init__(self, gain=(0.01, 0.15), center=(0.1, 0.9), sigma=(0.2, 1.0), p=0.5):
        super().__init__()
        self.gain, self.center, self.sigma, self.p = gain, center, sigma, p

    def generate_parameters(self, batch_shape):
        b = batch_shape[0]
        lo, hi = (self.gain, self.gain) if isinstance(self.gain, float) else self.gain
        return {
            "gain_factor": lo + (hi - lo) * torch.rand(b, 1, 1, 1),
            "center_x": self.center[0] + (self.center[1] - self.center[0]) * torch.rand(b, 1, 1, 1),
            "center_y": self.center[0] + (self.center[1] - self.center[0]) * torch.rand(b, 1, 1, 1),
            "sigma": self.sigma[0] + (self.sigma[1] - self.sigma[0]) * torch.rand(b, 1, 1, 1),
        }

    def apply_transform(self, input, params):
        _, _, h, w = input.shape
        ys = torch.linspace(0, 1, h).view(1, 1, h, 1)
        xs = torch.linspace(0, 1, w).view(1, 1, 1, w)
        dist = (xs - params["center_x"]) ** 2 + (ys - params["center_y"]) ** 2
        gradient = params["gain_factor"] * torch.exp(-dist / (2 * params["sigma"] ** 2))
        return (input + gradient).clamp(0, 1)

    def forward(self, input):
        params = self.generate_parameters(input.shape)
        return self.apply_transform(input, params)

device = torch.device("cuda:0")
img = torch.rand(1, 3, 64, 64).to(device)
aug = RandomGaussianIllumination(gain=0.1, p=1.0)
'''
CELL = '''
out = aug(img)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["aug"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return (input + gradient).clamp(0, 1)",
                  "return (input + gradient.to(input.device, input.dtype)).clamp(0, 1)")
CLEAN = False
