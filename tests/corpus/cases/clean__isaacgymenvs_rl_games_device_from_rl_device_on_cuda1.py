"""Look-alike: IsaacGymEnvs on cuda:1 with `rl_device` passed into the rl_games config; float64 running stats cast at use.

Source: https://github.com/isaac-sim/IsaacGymEnvs/issues/129
"Trying to run on cuda:1 crashes": with `sim_device=cuda:1 rl_device=cuda:1` the Cartpole run died
at the first policy step. rl_games' A2CBase reads `self.ppo_device = config.get('device', 'cuda:0')`
and `train.py` never put `rl_device` into the rl_games config (see PR #109), so the network and its
running-mean-std went to cuda:0 while VecTask returned observation tensors on cuda:1 (tensor obs
are passed through unchanged). The fix discussed in PR #109 (used here) adds
`device: ${....rl_device}` to the PPO config, so the model, its float64 RunningMeanStd buffers
(cast with `.float()` in forward) and the cuda:1 observations agree; nothing sits on cuda:0.
Stand-ins: a tiny VecTask, rl_games' network with an input RunningMeanStd and `get_action_values`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class RunningMeanStd(nn.Module):
    def __init__(self, shape, epsilon=1e-5):
        super().__init__()
        self.epsilon = epsilon
        self.register_buffer("running_mean", torch.zeros(shape, dtype=torch.float64))
        self.register_buffer("running_var", torch.ones(shape, dtype=torch.float64))
    def forward(self, x):
        y = (x - self.running_mean.float()) / torch.sqrt(self.running_var.float() + self.epsilon)
        return torch.clamp(y, -5.0, 5.0)

class ContinuousA2CNetwork(nn.Module):
    def __init__(self, obs_dim, act_dim):
        super().__init__()
        self.running_mean_std = RunningMeanStd(obs_dim)
        self.actor_mlp = nn.Sequential(nn.Linear(obs_dim, 32), nn.ELU(), nn.Linear(32, 32), nn.ELU())
        self.mu = nn.Linear(32, act_dim)
        self.value = nn.Linear(32, 1)
        self.sigma = nn.Parameter(torch.zeros(act_dim))
    def forward(self, input_dict):
        obs = self.running_mean_std(input_dict["obs"])
        out = self.actor_mlp(obs)
        return {"mus": self.mu(out), "sigmas": self.sigma.exp(), "values": self.value(out)}

class A2CAgent:
    def __init__(self, config, obs_dim, act_dim):
        self.ppo_device = config.get("device", "cuda:0")
        self.model = ContinuousA2CNetwork(obs_dim, act_dim).to(self.ppo_device)
    def cast_obs(self, obs):
        if isinstance(obs, torch.Tensor):
            return obs                  # tensor observations are used as they are
        return torch.as_tensor(obs, dtype=torch.float32, device=self.ppo_device)
    def get_action_values(self, obs):
        self.model.eval()
        return self.model({"obs": self.cast_obs(obs["obs"])})

class VecTask:
    def __init__(self, num_envs, num_obs, rl_device):
        self.num_envs, self.num_obs, self.rl_device = num_envs, num_obs, rl_device
    def reset(self):
        return {"obs": torch.zeros(self.num_envs, self.num_obs, device=self.rl_device)}

cfg = {"sim_device": "cuda:1", "rl_device": "cuda:1", "task_name": "Cartpole"}
rlg_config_dict = {"params": {"config": {"name": "Cartpole", "num_actors": 512, "ppo": True, "device": cfg["rl_device"]}}}
env = VecTask(num_envs=512, num_obs=4, rl_device=cfg["rl_device"])
agent = A2CAgent(rlg_config_dict["params"]["config"], obs_dim=4, act_dim=1)
obs = env.reset()
'''
CELL = '''
res_dict = agent.get_action_values(obs)
actions = torch.normal(res_dict["mus"], res_dict["sigmas"])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
