"""skrl TD3 in Isaac Lab on cuda:1: the exploration noise is created on the default device cuda:0.

Source: https://github.com/Toni-SM/skrl/issues/304
"TD3 Using Both GPUs Despite Specified Device in Isaac Lab": PPO and RPO trained fine on the chosen
GPU, but TD3 failed in `TD3.act` at `actions.add_(noises)`. The skrl runner instantiated the
exploration `GaussianNoise` from the agent config without passing the device, and skrl's noise
falls back to its default device ("cuda:0" when CUDA is available), while the agent, policy and env
ran on cuda:1. Stand-ins: skrl's GaussianNoise (a Normal on `self.device`), a deterministic policy
and the part of TD3.act that samples and adds the scaled noise.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn
from torch.distributions import Normal

class GaussianNoise:
    def __init__(self, mean, std, device=None):
        self.device = torch.device("cuda:0" if device is None else device)   # skrl's default device
        self.distribution = Normal(loc=torch.tensor(mean, device=self.device, dtype=torch.float32),
                                   scale=torch.tensor(std, device=self.device, dtype=torch.float32),
                                   validate_args=False)
    def sample(self, size):
        return self.distribution.sample(size)

class DeterministicActor(nn.Module):
    def __init__(self, num_obs, num_actions):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(num_obs, 400), nn.ReLU(), nn.Linear(400, 300), nn.ReLU(), nn.Linear(300, num_actions), nn.Tanh())
    def act(self, states):
        return self.net(states), None, {}

class TD3:
    def __init__(self, models, cfg, device):
        self.device = torch.device(device)
        self.policy = models["policy"]
        self._exploration_noise = cfg["exploration"]["noise"]
        self._exploration_initial_scale = cfg["exploration"]["initial_scale"]
        self.clip_actions_min = torch.tensor(-1.0, device=self.device)
        self.clip_actions_max = torch.tensor(1.0, device=self.device)
    def act(self, states, timestep, timesteps):
        actions, _, outputs = self.policy.act(states)
        if self._exploration_noise is not None:
            noises = self._exploration_noise.sample(actions.shape)
            noises.mul_(self._exploration_initial_scale)
            actions.add_(noises)
            actions.clamp_(min=self.clip_actions_min, max=self.clip_actions_max)
        return actions, None, outputs

device = "cuda:1"                       # --device cuda:1 (env.device)
models = {"policy": DeterministicActor(48, 12).to(device)}
agent_cfg = {"exploration": {"noise": GaussianNoise(mean=0.0, std=0.1), "initial_scale": 1.0}}   # built by the runner
agent = TD3(models=models, cfg=agent_cfg, device=device)
states = torch.randn(64, 48, device=device)
'''
CELL = '''
actions = agent.act(states, timestep=0, timesteps=1000)[0]
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["agent._exploration_noise"]
FIX = "namespace"
REFERENCE_FIX = '''
agent._exploration_noise = GaussianNoise(mean=0.0, std=0.1, device=agent.device)
'''
REFERENCE_EDIT = None
CLEAN = False
