"""L5Kit DriverGym: the SimNet agent-forecasting model runs on the CPU inside the env while the PPO policy is on the GPU.

Source: https://github.com/woven-planet/l5kit/blob/master/l5kit/l5kit/environment/envs/l5_env.py
`L5Env.__init__` sets `self.device = torch.device("cpu")` and loads the SimNet model that predicts the
other agents' trajectories with `torch.jit.load(simnet_model_path).to(self.device)`; `step()` collates
the rasterised agents with `default_collate` and runs `self.simulator.model_agents(move_to_device(
agents_input_dict, self.device))` on the CPU (the PR adding it says the rollouts stay on the CPU and
the GPU is for the RL policy). The PPO policy (examples/RL/ppo_training.py, CustomFeatureExtractor
with SimpleCNN_GN) lives on the GPU and gets the observation through SB3's `obs_as_tensor(obs,
device)`. Look-alike: two models on two devices, each fed on its own device; it runs.
Stand-ins: a small CNN instead of the TorchScript SimNet, the env's agent step and the SB3
actor-critic forward (features extractor, MLP extractor, action and value heads); GPU simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data.dataloader import default_collate

def move_to_device(data, device):
    return {k: v.to(device) for k, v in data.items()}

def obs_as_tensor(obs, device):
    return {key: torch.as_tensor(_obs).to(device) for (key, _obs) in obs.items()}

def SimpleCNN_GN(num_input_channels, features_dim):
    return nn.Sequential(
        nn.Conv2d(num_input_channels, 64, kernel_size=(7, 7), stride=(2, 2), padding=(3, 3), bias=False),
        nn.GroupNorm(4, 64), nn.ReLU(), nn.MaxPool2d(kernel_size=2, stride=2),
        nn.Conv2d(64, 32, kernel_size=(7, 7), stride=(2, 2), padding=(3, 3), bias=False),
        nn.GroupNorm(2, 32), nn.ReLU(), nn.MaxPool2d(kernel_size=2, stride=2),
        nn.Flatten(), nn.Linear(in_features=1568, out_features=features_dim))

class CustomFeatureExtractor(nn.Module):
    def __init__(self, num_input_channels, features_dim=256):
        super().__init__()
        self.extractors = nn.ModuleDict({"image": SimpleCNN_GN(num_input_channels, features_dim)})
    def forward(self, observations):
        return torch.cat([extractor(observations[key]) for key, extractor in self.extractors.items()], dim=1)

class ActorCriticCnnPolicy(nn.Module):
    def __init__(self, n_channels, features_dim=256, action_dim=3):
        super().__init__()
        self.features_extractor = CustomFeatureExtractor(n_channels, features_dim)
        self.mlp_extractor = nn.Sequential(nn.Linear(features_dim, 64), nn.Tanh())
        self.action_net = nn.Linear(64, action_dim)
        self.value_net = nn.Linear(64, 1)
    def forward(self, obs):
        latent = self.mlp_extractor(self.features_extractor(obs))
        return self.action_net(latent), self.value_net(latent)

class SimNet(nn.Module):
    """Agent trajectory model (stand-in for the TorchScript SimNet)."""
    def __init__(self, n_channels, future_num_frames=12):
        super().__init__()
        self.future_num_frames = future_num_frames
        self.backbone = nn.Sequential(nn.Conv2d(n_channels, 16, 5, stride=4), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(16, future_num_frames * 3)
    def forward(self, data):
        out = self.head(self.backbone(data["image"])).view(-1, self.future_num_frames, 3)
        return {"positions": out[..., :2], "yaws": out[..., 2:]}

class ClosedLoopSimulator:
    def __init__(self, device, model_agents):
        self.device = device
        self.model_agents = model_agents

n_channels, raster_size = 5, 112
env_device = torch.device("cpu")                       # L5Env: self.device = torch.device("cpu")
simulation_model = SimNet(n_channels).to(env_device).eval()
simulator = ClosedLoopSimulator(env_device, simulation_model)

policy_device = torch.device("meta")                    # PPO(..., device="auto") -> the GPU, simulated by meta
policy = ActorCriticCnnPolicy(n_channels).to(policy_device)

rng = np.random.RandomState(0)
agents_input = {track_id: {"image": torch.rand(n_channels, raster_size, raster_size),
                           "history_positions": torch.zeros(4, 2)} for track_id in (3, 7, 11)}
obs = {"image": rng.rand(2, n_channels, raster_size, raster_size).astype(np.float32)}   # n_envs=2
'''
CELL = '''
# env.step(): agents forecast on the env's CPU device
agents_input_dict = default_collate(list(agents_input.values()))
with torch.no_grad():
    agents_output_dict = simulator.model_agents(move_to_device(agents_input_dict, simulator.device))

# PPO rollout: the policy acts on the observation moved to its own device
with torch.no_grad():
    obs_tensor = obs_as_tensor(obs, policy_device)
    actions, values = policy(obs_tensor)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
