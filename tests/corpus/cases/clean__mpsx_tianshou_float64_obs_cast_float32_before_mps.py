"""tianshou on mps: float64 observations are cast to float32 before they are moved, then fed to the policy network.

Source: https://github.com/thu-ml/tianshou/pull/1237
"Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64": the fix
casts the batch to float32 before the `.to(device)` in the network's preprocessing (a commenter's demo:
`c = a.type(torch.float32); b = c.to('mps')`). Look-alike: float64 numpy observations in the
namespace beside a float32 network on the accelerator; the net converts them with the right dtype
and device. Stand-in: tianshou's `Net` (MLP) with its `torch.as_tensor(obs, device=..., dtype=torch.float32)`
preprocessing; cuda:0 stands in for mps.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Net(nn.Module):
    def __init__(self, state_shape, action_shape, hidden_sizes=(64, 64), device="cpu"):
        super().__init__()
        self.device = device
        layers, d = [], int(np.prod(state_shape))
        for h in hidden_sizes:
            layers += [nn.Linear(d, h), nn.ReLU()]
            d = h
        layers.append(nn.Linear(d, int(np.prod(action_shape))))
        self.model = nn.Sequential(*layers)

    def forward(self, obs, state=None, info={}):
        obs = torch.as_tensor(obs, dtype=torch.float32).to(self.device)
        logits = self.model(obs.flatten(1))
        return logits, state

device = "cuda:0"                     # "mps"
net = Net(state_shape=(4,), action_shape=2, device=device).to(device)
obs = np.random.randn(32, 4)          # gymnasium CartPole batch: float64
'''
CELL = '''
logits, _ = net(obs)
act = logits.argmax(-1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
