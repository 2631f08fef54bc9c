"""BenchMARL IPPO on Melting Pot with `sampling_device=cpu, train_device=cuda`: the collected group batch reaches the GAE value estimator still on the CPU.

Source: https://github.com/facebookresearch/BenchMARL/issues/213
"Device Mismatch Error with cpu and cuda": with the configuration from #78 (IPPO, train_device
"cuda", sampling_device "cpu") every run failed in `experiment._collection_loop` ->
`self.algorithm.process_batch(group, group_batch)` -> `loss.value_estimator(...)`. The collector
returns its batch on the sampling device, and `process_batch` ran GAE with the critic (on the train
device) over that CPU batch. Stand-ins: the collected group batch as a nested dict (TensorDict),
a centralised critic, and the GAE value estimator called from `process_batch`.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn
from types import SimpleNamespace

config = SimpleNamespace(sampling_device="cpu", train_device="cuda:0", gamma=0.99, lmbda=0.9)

class GAE:
    def __init__(self, gamma, lmbda, value_network):
        self.gamma, self.lmbda, self.value_network = gamma, lmbda, value_network
    @torch.no_grad()
    def __call__(self, batch):
        value = self.value_network(batch["agents"]["observation"])
        next_value = self.value_network(batch["next"]["agents"]["observation"])
        reward, done = batch["next"]["agents"]["reward"], batch["next"]["agents"]["done"].float()
        delta = reward + self.gamma * next_value * (1 - done) - value
        deltas, dones = delta.unbind(1), done.unbind(1)
        running, advs = torch.zeros_like(deltas[0]), []
        for d_t, done_t in zip(reversed(deltas), reversed(dones)):
            running = d_t + self.gamma * self.lmbda * (1 - done_t) * running
            advs.append(running)
        adv = torch.stack(advs[::-1], dim=1)
        batch["agents"]["advantage"] = adv
        batch["agents"]["value_target"] = adv + value
        return batch

class Ippo:
    def __init__(self, critic):
        self.value_estimator = GAE(config.gamma, config.lmbda, critic)
    def process_batch(self, group, batch):
        return self.value_estimator(batch)

critic = nn.Sequential(nn.Linear(64, 256), nn.Tanh(), nn.Linear(256, 1)).to(config.train_device)
algorithm = Ippo(critic)
n_envs, T, n_agents, obs_dim = 4, 20, 8, 64
def collect(device):
    """SyncDataCollector on the sampling device"""
    agents = {"observation": torch.randn(n_envs, T, n_agents, obs_dim, device=device)}
    nxt = {"agents": {"observation": torch.randn(n_envs, T, n_agents, obs_dim, device=device),
                      "reward": torch.randn(n_envs, T, n_agents, 1, device=device),
                      "done": torch.zeros(n_envs, T, n_agents, 1, dtype=torch.bool, device=device)}}
    return {"agents": agents, "next": nxt}
batch = collect(config.sampling_device)
group = "agents"
group_batch = {"agents": batch["agents"], "next": batch["next"]}
'''
CELL = '''
group_batch = algorithm.process_batch(group, group_batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["group_batch"]
FIX = "namespace"
REFERENCE_FIX = '''
def _to(d, device):
    return {k: _to(v, device) if isinstance(v, dict) else v.to(device) for k, v in d.items()}
group_batch = _to(group_batch, config.train_device)
'''
REFERENCE_EDIT = None
CLEAN = False
