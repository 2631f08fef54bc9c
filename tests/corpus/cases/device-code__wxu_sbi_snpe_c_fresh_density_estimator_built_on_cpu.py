"""sbi SNPE-C trained with `device="cuda"`: the freshly built density estimator stays on the CPU while the simulations are moved to the GPU.

Source: https://github.com/sbi-dev/sbi/issues/460
With sbi 0.15.1 the user ran `SNPE_C(prior, density_estimator="maf", device=...)` and
`inference.append_simulations(theta, x).train(...)` on a GPU and got a device-mismatch error: `train`
builds the neural posterior estimator from the first round's data with `self._build_neural_net(theta, x)`
but never moves it to `self._device`, while the training batches are sent to the device. The fix
(PR #461, "moving fresh NN to same device as base class") adds `.to(self._device)` after building.
Stand-in: a reduced SNPE_C whose builder returns a small conditional Gaussian density estimator.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch
from torch import nn

class ConditionalGaussian(nn.Module):
    def __init__(self, theta_dim, x_dim, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(x_dim, hidden), nn.Tanh(), nn.Linear(hidden, 2 * theta_dim))
    def log_prob(self, theta, context):
        mu, log_sigma = self.net(context).chunk(2, -1)
        z = (theta - mu) / log_sigma.exp()
        return (-0.5 * z ** 2 - log_sigma - 0.5 * math.log(2 * math.pi)).sum(-1)

def posterior_nn(model="maf"):
    def build_fn(batch_theta, batch_x):
        return ConditionalGaussian(batch_theta.shape[1], batch_x.shape[1])
    return build_fn

class SNPE_C:
    def __init__(self, prior=None, density_estimator="maf", device="cpu"):
        self._device = torch.device(device)
        self._build_neural_net = posterior_nn(density_estimator)
        self._neural_net = None
    def append_simulations(self, theta, x):
        self._theta, self._x = theta, x
        return self
    def train(self, training_batch_size=50):
        if self._neural_net is None:
            self._neural_net = self._build_neural_net(self._theta[:100], self._x[:100])
        theta_batch = self._theta[:training_batch_size].to(self._device)
        x_batch = self._x[:training_batch_size].to(self._device)
        with torch.no_grad():
            loss = -self._neural_net.log_prob(theta_batch, x_batch).mean()
        return self._neural_net

theta = torch.rand(200, 3)
x = theta + 0.1 * torch.randn(200, 3)
inference = SNPE_C(density_estimator="maf", device="cuda:0")
'''
CELL = '''
estimator = inference.append_simulations(theta, x).train(training_batch_size=50)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["inference"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("self._neural_net = self._build_neural_net(self._theta[:100], self._x[:100])",
                  "self._neural_net = self._build_neural_net(self._theta[:100], self._x[:100]).to(self._device)")
CLEAN = False
