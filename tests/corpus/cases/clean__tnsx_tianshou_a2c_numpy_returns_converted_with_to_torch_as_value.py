"""Look-alike: Tianshou A2C/PPO computes returns and advantages in float64 NumPy, then `to_torch_as(..., batch.v_s)` puts them on the critic's device and dtype.

Source: https://github.com/thu-ml/tianshou/blob/f8808d236f53d86583c74f459365c9cc4184256c/tianshou/policy/modelfree/a2c.py
`A2CPolicy._compute_returns` gets `unnormalized_returns, advantages` from the NumPy
`compute_episodic_return` (float64, on the CPU) and ends with
`batch.returns = to_torch_as(batch.returns, batch.v_s)` and `batch.adv = to_torch_as(advantages, batch.v_s)`,
so the value loss `(batch.returns - value).pow(2).mean()` runs on the GPU in float32. CPU float64
arrays next to a CUDA critic, converted on purpose: nothing to report. Stand-ins: Batch, to_torch /
to_torch_as (as in tianshou.data.utils.converter), Net and the continuous Critic, reduced.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Batch:
    """tianshou.data.Batch, reduced: an attribute container."""
    def __init__(self, **kwargs):
        self.__dict__.update(kwargs)

def to_torch(x, dtype=None, device="cpu"):
    """tianshou.data.to_torch, ndarray and Tensor branches."""
    if isinstance(x, np.ndarray):
        x = torch.from_numpy(x).to(device)
        if dtype is not None:
            x = x.type(dtype)
        return x
    if dtype is not None:
        x = x.type(dtype)
    return x.to(device)

def to_torch_as(x, y):
    """tianshou.data.to_torch_as: same dtype and device as `y`."""
    return to_torch(x, dtype=y.dtype, device=y.device)

class Net(nn.Module):
    """tianshou.utils.net.common.Net, reduced."""
    def __init__(self, state_shape, hidden_sizes=(64, 64), device="cpu"):
        super().__init__()
        self.device = device
        layers, in_dim = [], int(np.prod(state_shape))
        for h in hidden_sizes:
            layers += [nn.Linear(in_dim, h), nn.Tanh()]
            in_dim = h
        self.model = nn.Sequential(*layers)
        self.output_dim = in_dim
    def forward(self, obs, state=None, info={}):
        obs = torch.as_tensor(obs, device=self.device, dtype=torch.float32)
        return self.model(obs.flatten(1)), state

class Critic(nn.Module):
    """tianshou.utils.net.continuous.Critic, reduced."""
    def __init__(self, preprocess_net, device="cpu"):
        super().__init__()
        self.device = device
        self.preprocess = preprocess_net
        self.last = nn.Linear(preprocess_net.output_dim, 1)
    def forward(self, obs, act=None, info={}):
        obs = torch.as_tensor(obs, device=self.device, dtype=torch.float32).flatten(1)
        logits, hidden = self.preprocess(obs)
        return self.last(logits)

device = torch.device("cuda:0")
net_c = Net((11,), hidden_sizes=(64, 64), device=device)
critic = Critic(net_c, device=device).to(device)
obs = np.random.randn(256, 11)                               # float64 observations from the buffer
with torch.no_grad():
    v_s = critic(obs).flatten()
batch = Batch(obs=obs, v_s=v_s)
# what compute_episodic_return hands back: float64 NumPy arrays
unnormalized_returns = np.random.randn(256)
advantages = np.random.randn(256)
'''
CELL = '''
batch.returns = to_torch_as(unnormalized_returns, batch.v_s)
batch.adv = to_torch_as(advantages, batch.v_s)
with torch.no_grad():
    value = critic(batch.obs).flatten()
    vf_loss = (batch.returns - value).pow(2).mean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
