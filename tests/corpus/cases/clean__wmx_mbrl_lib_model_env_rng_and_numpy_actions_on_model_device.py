"""Look-alike: mbrl-lib's ModelEnv makes its rng generator on the model's device and moves numpy action sequences there.

Source: https://github.com/facebookresearch/mbrl-lib/blob/main/mbrl/models/model_env.py
After PR #80 ("the device for the rng generator of ModelEnv was not set correctly") ModelEnv builds
`self._rng = torch.Generator(device=self.device)`; `reset` converts the initial observation batch
and `step` converts the CEM optimiser's action array with `.to(self.device)` before calling the
dynamics model, which samples propagation indices with `torch.randperm(..., device=self.device,
generator=rng)`. Stand-ins: a single Linear member instead of the GaussianMLP ensemble and a plain
reward function; the CUDA generator is left out (a CPU build of torch cannot create one), so
`randperm` runs with the default generator on the model device.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class DynamicsModel(nn.Module):
    def __init__(self, obs_size=11, action_size=3, device="cuda:0"):
        super().__init__()
        self.device = torch.device(device)
        self.net = nn.Linear(obs_size + action_size, obs_size).to(self.device)
        self._propagation_indices = None

    def reset(self, obs, rng):
        self._propagation_indices = torch.randperm(obs.shape[0], device=self.device)
        return obs

    def sample(self, action, obs):
        return obs + self.net(torch.cat([obs, action], dim=-1))

class ModelEnv:
    def __init__(self, dynamics_model, reward_fn, generator=None):
        self.dynamics_model = dynamics_model
        self.reward_fn = reward_fn
        self.device = dynamics_model.device
        self._rng = generator        # mbrl-lib: torch.Generator(device=self.device)
        self._current_obs = None

    def reset(self, initial_obs_batch):
        obs = torch.from_numpy(initial_obs_batch.astype(np.float32)).to(self.device)
        self._current_obs = self.dynamics_model.reset(obs, rng=self._rng)
        return self._current_obs

    def step(self, actions):
        if isinstance(actions, np.ndarray):
            actions = torch.from_numpy(actions.astype(np.float32)).to(self.device)
        next_obs = self.dynamics_model.sample(actions, self._current_obs)
        rewards = self.reward_fn(actions, next_obs)
        self._current_obs = next_obs
        return next_obs, rewards

def reward_fn(act, next_obs):
    return -(next_obs ** 2).sum(dim=1, keepdim=True) - 0.1 * (act ** 2).sum(dim=1, keepdim=True)

model_env = ModelEnv(DynamicsModel(), reward_fn)
initial_obs = np.random.randn(20, 11)
action_sequences = np.random.uniform(-1, 1, size=(5, 20, 3))     # CEM population, numpy
'''
CELL = '''
with torch.no_grad():
    model_env.reset(initial_obs)
    total_rewards = 0
    for time_step in range(action_sequences.shape[0]):
        _, rewards = model_env.step(action_sequences[time_step])
        total_rewards = total_rewards + rewards
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
