"""RLlib DDPG restored from a GPU checkpoint: the Ornstein-Uhlenbeck exploration state comes back as a CPU tensor.

Source: https://github.com/ray-project/ray/pull/34447
"If a DDPG algorithm trained on gpu is restored from history checkpoints to perform a policy (e.g.
call by agent.compute_single_action()) the error: 'Expected all tensors to be on the same device,
but found at least two devices, cuda:0 and cpu!' will occur": after the restore `self.ou_state` is
on the CPU while `gaussian_sample` is moved to `self.device`. The PR's fix adds
`self.ou_state = self.ou_state.to(self.device)` in `_get_torch_exploration_action`.
Stand-ins: OrnsteinUhlenbeckNoise (GaussianNoise base and schedule reduced to a constant scale;
`set_state` rebuilds `ou_state` with `torch.from_numpy`, as the exploration state is restored from
the checkpoint's numpy arrays), a deterministic action distribution, and the policy's compute path.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from types import SimpleNamespace
import numpy as np
import torch
from torch import nn

class TorchDeterministic:
    def __init__(self, inputs):
        self.inputs = inputs

    def deterministic_sample(self):
        return self.inputs

class OrnsteinUhlenbeckNoise:
    def __init__(self, action_space, *, framework="torch", ou_theta=0.15, ou_sigma=0.2, ou_base_scale=0.1,
                 random_timesteps=1000, device=None):
        self.action_space = action_space
        self.framework = framework
        self.device = device
        self.random_timesteps = random_timesteps
        self.last_timestep = 0
        self.ou_theta = ou_theta
        self.ou_sigma = ou_sigma
        self.ou_base_scale = ou_base_scale
        self.ou_state = torch.from_numpy(np.array(self.action_space.low.size * [.0], dtype=np.float32)).to(device)

    def scale_schedule(self, t):
        return 0.02

    def get_state(self):
        return {"last_timestep": self.last_timestep, "ou_state": self.ou_state.cpu().numpy()}

    def set_state(self, state):
        self.last_timestep = state["last_timestep"]
        self.ou_state = torch.from_numpy(state["ou_state"])

    def get_exploration_action(self, action_dist, explore=True, timestep=None):
        return self._get_torch_exploration_action(action_dist, explore, timestep)

    def _get_torch_exploration_action(self, action_dist, explore, timestep):
        self.last_timestep = timestep if timestep is not None else self.last_timestep + 1
        if explore:
            det_actions = action_dist.deterministic_sample()
            scale = self.scale_schedule(self.last_timestep)
            gaussian_sample = scale * torch.normal(
                mean=torch.zeros(self.ou_state.size()), std=1.0).to(self.device)
            ou_new = self.ou_theta * -self.ou_state + self.ou_sigma * gaussian_sample
            self.ou_state += ou_new
            high_m_low = torch.from_numpy(self.action_space.high - self.action_space.low).to(self.device)
            high_m_low = torch.where(torch.isinf(high_m_low), torch.ones_like(high_m_low).to(self.device), high_m_low)
            noise = scale * self.ou_base_scale * self.ou_state * high_m_low
            action = torch.clamp(det_actions + noise, float(self.action_space.low[0]), float(self.action_space.high[0]))
        else:
            action = action_dist.deterministic_sample()
        logp = torch.zeros((action.size()[0],), dtype=torch.float32, device=self.device)
        return action, logp

class DDPGTorchPolicy:
    def __init__(self, obs_dim, action_space, device):
        self.device = device
        self.model = nn.Sequential(nn.Linear(obs_dim, 64), nn.ReLU(), nn.Linear(64, 1), nn.Tanh()).to(device)
        self.exploration = OrnsteinUhlenbeckNoise(action_space, device=device)

    def compute_actions(self, obs_batch, explore=True):
        with torch.no_grad():
            dist_inputs = 2.0 * self.model(obs_batch)
            action_dist = TorchDeterministic(dist_inputs)
            return self.exploration.get_exploration_action(action_dist, explore=explore)

action_space = SimpleNamespace(low=np.array([-2.0], dtype=np.float32), high=np.array([2.0], dtype=np.float32))
policy = DDPGTorchPolicy(obs_dim=3, action_space=action_space, device=torch.device("cuda:0"))
# Algorithm.from_checkpoint(...): the exploration state is restored from the checkpoint's numpy arrays
checkpoint_state = {"last_timestep": 20000, "ou_state": np.array([0.05], dtype=np.float32)}
policy.exploration.set_state(checkpoint_state)
obs = torch.randn(1, 3, device="cuda:0")          # Pendulum observation on the policy device
'''
CELL = '''
action, logp = policy.compute_actions(obs, explore=True)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["policy.exploration"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "            ou_new = self.ou_theta * -self.ou_state + self.ou_sigma * gaussian_sample\n",
    "            self.ou_state = self.ou_state.to(self.device)\n"
    "            ou_new = self.ou_theta * -self.ou_state + self.ou_sigma * gaussian_sample\n",
)
CLEAN = False
