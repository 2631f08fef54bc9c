"""TorchRL prioritized replay: `info['_weight']` comes back on the CPU while the sampled batch is on cuda.

Source: https://github.com/pytorch/rl/issues/2518
With `ReplayBuffer(storage=LazyTensorStorage(10, device=cuda), sampler=PrioritizedSampler(...))`,
`rb.sample(10, return_info=True)` returns the sample on cuda but the importance-sampling weights in
`info['_weight']` on the CPU (the sampler's sum tree lives on the CPU), and the user's loss
`(info['_weight'] * td_error).mean()` mixes the two. ReplayBuffer/LazyTensorStorage/PrioritizedSampler
are small stand-ins keeping that split; the Q network is a toy.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

class LazyTensorStorage:
    def __init__(self, max_size, device="cpu"):
        self.max_size, self.device = max_size, torch.device(device)
        self._data = {}

    def set(self, data):
        self._data = {k: v.to(self.device) for k, v in data.items()}

    def get(self):
        return self._data

class PrioritizedSampler:
    def __init__(self, max_capacity, alpha, beta):
        self.alpha, self.beta = alpha, beta
        self._priority = torch.ones(max_capacity)          # the sum tree: kept on the CPU

    def sample(self, batch_size):
        p = self._priority[:batch_size] ** self.alpha
        probs = p / p.sum()
        weight = (batch_size * probs) ** (-self.beta)
        return {"_weight": weight / weight.max()}

class ReplayBuffer:
    def __init__(self, storage, sampler):
        self._storage, self._sampler = storage, sampler

    def extend(self, data):
        self._storage.set(data)

    def sample(self, batch_size, return_info=False):
        info = self._sampler.sample(batch_size)
        data = self._storage.get()
        return (data, info) if return_info else data

device = torch.device("cuda:0")
rb = ReplayBuffer(storage=LazyTensorStorage(10, device=device),
                  sampler=PrioritizedSampler(max_capacity=10, alpha=1.0, beta=1.0))
rb.extend({"obs": torch.randn(10, 4), "reward": torch.randn(10), "next_obs": torch.randn(10, 4)})
qnet = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)
sample, info = rb.sample(10, return_info=True)
'''
CELL = '''
q = qnet(sample["obs"]).squeeze(-1)
target = sample["reward"] + 0.99 * qnet(sample["next_obs"]).squeeze(-1)
td_error = (q - target.detach()).pow(2)
loss = (info["_weight"] * td_error).mean()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["info['_weight']"]
FIX = "namespace"
REFERENCE_FIX = '''
info["_weight"] = info["_weight"].to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
