"""APPFL client with `--use_dp` on CUDA: Laplace noise is drawn on the model's GPU and added to the CPU copy of the primal state.

Source: https://github.com/APPFL/APPFL/issues/150
`mpiexec -np 3 python examples/mnist_mpi_sync.py ... --use_dp --epsilon 0.01` failed in
`ClientOptim.update` -> `laplace_mechanism_output_perturb(scale_value)` only when a CUDA device was
used. After local training `update` copies `self.model.state_dict()` into `self.primal_state` and, for
`cfg.device == "cuda"`, moves every entry to the CPU; the DP step then builds the Laplace
distribution from `mean = torch.zeros_like(param.data)` and `scale = torch.zeros_like(param.data) +
scale_value` (on the GPU) and does `self.primal_state[name] += m.sample()`. Stand-in: the client after
local training (the model on cuda:0, the primal state as the CPU copies `update` makes); the Laplace
sample is drawn by the inverse-CDF formula from `torch.rand_like` (fake tensors cannot run the
distribution's in-place `uniform_`); the cell is the DP step of `update`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from collections import OrderedDict
from types import SimpleNamespace
import torch
import torch.nn as nn

class Laplace:
    """torch.distributions.laplace.Laplace(loc, scale).sample()"""
    def __init__(self, loc, scale):
        self.loc, self.scale = loc, scale

    def sample(self):
        u = torch.rand_like(self.loc) * 2 - 1
        return self.loc - self.scale * u.sign() * torch.log1p(-u.abs())

class BaseClient:
    def __init__(self, id, weight, model, loss_fn, dataloader, cfg):
        self.id, self.weight, self.model, self.loss_fn = id, weight, model, loss_fn
        self.dataloader, self.cfg = dataloader, cfg
        self.primal_state = OrderedDict()

    def laplace_mechanism_output_perturb(self, scale_value):
        for name, param in self.model.named_parameters():
            mean = torch.zeros_like(param.data)
            scale = torch.zeros_like(param.data) + scale_value
            m = Laplace(mean, scale)
            self.primal_state[name] += m.sample()

class CNN(nn.Module):
    def __init__(self, num_channel=1, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(num_channel, 8, 5)
        self.fc = nn.Linear(8 * 12 * 12, num_classes)

    def forward(self, x):
        x = torch.max_pool2d(torch.relu(self.conv1(x)), 2)
        return self.fc(torch.flatten(x, 1))

cfg = SimpleNamespace(device="cuda")
client = BaseClient(1, 0.5, CNN().to("cuda:0"), nn.CrossEntropyLoss(), None, cfg)
client.epsilon, client.clip_value, client.optim_args = 0.01, 1.0, SimpleNamespace(lr=0.01)
# end of ClientOptim.update after local training: state_dict copied, then moved to the CPU for "cuda"
client.primal_state = OrderedDict((k, torch.zeros(v.shape)) for k, v in client.model.state_dict().items())
'''
CELL = '''
""" Differential Privacy  """
if client.epsilon != False:
    sensitivity = 0
    if client.clip_value != False:
        sensitivity = 2.0 * client.clip_value * client.optim_args.lr
    scale_value = sensitivity / client.epsilon
    client.laplace_mechanism_output_perturb(scale_value)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["client"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""mean = torch.zeros_like(param.data)
            scale = torch.zeros_like(param.data) + scale_value""",
                  """mean = torch.zeros_like(self.primal_state[name])
            scale = torch.zeros_like(self.primal_state[name]) + scale_value""")
CLEAN = False
