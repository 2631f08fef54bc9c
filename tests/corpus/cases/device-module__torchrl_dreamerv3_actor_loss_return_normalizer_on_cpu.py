"""TorchRL DreamerV3 actor loss: the percentile return normalizer is created on the CPU next to CUDA actor/value models.

Source: https://github.com/pytorch/rl/pull/4248
"DreamerV3ActorLoss creates its percentile return normalizer after receiving the actor, value
model, and model-based environment. The normalizer was created on the default CPU even when those
modules were already on CUDA, causing every actor-loss path that updates return statistics to fail
with a device mismatch." The fix builds the normalizer on the device of the loss's parameters.
Stand-ins: a PercentileReturnNormalizer with low/high EMA buffers, lambda-returns from imagined
rewards/values, and the actor/value MLPs already on cuda:0 when the loss is constructed.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class PercentileReturnNormalizer(nn.Module):
    def __init__(self, low=0.05, high=0.95, decay=0.99, limit=1.0):
        super().__init__()
        self.low_q, self.high_q, self.decay, self.limit = low, high, decay, limit
        self.register_buffer("low", torch.zeros(1))
        self.register_buffer("high", torch.zeros(1))

    def update(self, returns):
        flat = returns.detach().flatten()
        lo = torch.quantile(flat, self.low_q)
        hi = torch.quantile(flat, self.high_q)
        self.low.mul_(self.decay).add_((1 - self.decay) * lo)
        self.high.mul_(self.decay).add_((1 - self.decay) * hi)

    def scale(self):
        return torch.clamp(self.high - self.low, min=self.limit)

class DreamerV3ActorLoss(nn.Module):
    def __init__(self, actor_model, value_model, lmbda=0.95, gamma=0.997):
        super().__init__()
        self.actor_model, self.value_model = actor_model, value_model
        self.lmbda, self.gamma = lmbda, gamma
        self.return_normalizer = PercentileReturnNormalizer()      # default (CPU) device

    def lambda_return(self, reward, value):
        returns, last = [], value[:, -1]
        for t in reversed(range(reward.shape[1])):
            last = reward[:, t] + self.gamma * ((1 - self.lmbda) * value[:, t] + self.lmbda * last)
            returns.append(last)
        return torch.stack(returns[::-1], dim=1)

    def forward(self, imagined_state, imagined_reward):
        value = self.value_model(imagined_state)
        returns = self.lambda_return(imagined_reward, value)
        self.return_normalizer.update(returns)
        adv = (returns - value) / self.return_normalizer.scale()
        return -adv.mean()

device = torch.device("cuda:0")
actor_model = nn.Sequential(nn.Linear(32, 64), nn.ELU(), nn.Linear(64, 6)).to(device)
value_model = nn.Sequential(nn.Linear(32, 64), nn.ELU(), nn.Linear(64, 1)).to(device)
actor_loss = DreamerV3ActorLoss(actor_model, value_model)
imagined_state = torch.randn(16, 15, 32, device=device)      # world-model imagination rollout
imagined_reward = torch.randn(16, 15, 1, device=device)
'''
CELL = '''
loss_actor = actor_loss(imagined_state, imagined_reward)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["actor_loss.return_normalizer"]
FIX = "namespace"
REFERENCE_FIX = '''
actor_loss.return_normalizer.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
