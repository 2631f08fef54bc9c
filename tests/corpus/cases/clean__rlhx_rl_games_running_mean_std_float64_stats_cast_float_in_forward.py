"""rl_games PPO input normalization: `RunningMeanStd` keeps float64 running statistics for a float32 policy.

Source: https://github.com/Denys88/rl_games/blob/master/rl_games/algos_torch/running_mean_std.py
(`RunningMeanStd`, used by `BaseModelNetwork.norm_obs` in rl_games/algos_torch/models.py when
`normalize_input: True`)
The running mean/var buffers are float64 (float32 only on MPS) and the sample count is int64 on
purpose; `forward` updates them from float32 batch moments and casts with `.float()` before
normalizing, so the normalized observations reach the float32 MLP as float32. Look-alike: float64
and int64 buffers inside a float32 actor-critic; the PPO forward runs.
Stand-ins: the module without `torch.jit.script`, a small continuous actor-critic network.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class RunningMeanStd(nn.Module):
    def __init__(self, insize, epsilon=1e-05, per_channel=False, norm_only=False):
        super().__init__()
        self.insize = insize
        self.epsilon = epsilon
        self.norm_only = norm_only
        self.per_channel = per_channel
        self.axis = [0]
        in_size = insize
        dtype = torch.float64
        self.register_buffer("running_mean", torch.zeros(in_size, dtype=dtype))
        self.register_buffer("running_var", torch.ones(in_size, dtype=dtype))
        self.register_buffer("count", torch.ones((), dtype=torch.int64))

    def _update_mean_var_count_from_moments(self, mean, var, count, batch_mean, batch_var, batch_count: int):
        count_f = count.to(mean.dtype)
        tot_count_f = count_f + batch_count
        delta = batch_mean - mean
        new_mean = mean + delta * batch_count / tot_count_f
        m_a = var * count_f
        m_b = batch_var * batch_count
        M2 = m_a + m_b + delta**2 * count_f * batch_count / tot_count_f
        new_var = M2 / tot_count_f
        new_count = count + batch_count
        return new_mean, new_var, new_count

    def forward(self, input, denorm: bool = False):
        if self.training:
            mean = input.mean(self.axis)
            var = input.var(self.axis, unbiased=False)
            self.running_mean, self.running_var, self.count = self._update_mean_var_count_from_moments(
                self.running_mean, self.running_var, self.count, mean, var, input.size(0)
            )
        current_mean = self.running_mean
        current_var = self.running_var
        if denorm:
            y = torch.clamp(input, min=-5.0, max=5.0)
            y = torch.sqrt(current_var.float() + self.epsilon) * y + current_mean.float()
        else:
            y = (input - current_mean.float()) / torch.sqrt(current_var.float() + self.epsilon)
            y = torch.clamp(y, min=-5.0, max=5.0)
        return y

class A2CContinuousNetwork(nn.Module):
    def __init__(self, obs_shape, actions_num, normalize_input=True, normalize_value=True):
        super().__init__()
        self.normalize_input = normalize_input
        self.normalize_value = normalize_value
        if normalize_value:
            self.value_mean_std = RunningMeanStd((1,))
        if normalize_input:
            self.running_mean_std = RunningMeanStd(obs_shape)
        self.actor_mlp = nn.Sequential(nn.Linear(obs_shape[0], 64), nn.ELU(), nn.Linear(64, 64), nn.ELU())
        self.mu = nn.Linear(64, actions_num)
        self.sigma = nn.Parameter(torch.zeros(actions_num))
        self.value = nn.Linear(64, 1)

    def norm_obs(self, observation):
        with torch.no_grad():
            return self.running_mean_std(observation) if self.normalize_input else observation

    def denorm_value(self, value):
        with torch.no_grad():
            return self.value_mean_std(value, denorm=True) if self.normalize_value else value

    def forward(self, obs):
        out = self.actor_mlp(self.norm_obs(obs))
        return self.mu(out), self.sigma.expand(obs.size(0), -1), self.value(out)

model = A2CContinuousNetwork(obs_shape=(11,), actions_num=3)
obs = torch.randn(256, 11)                # env observations, float32
'''
CELL = '''
mu, logstd, value = model(obs)
values = model.denorm_value(value)
neglogp = 0.5 * (((obs.new_zeros(mu.shape) - mu) / torch.exp(logstd)) ** 2).sum(dim=-1) + logstd.sum(dim=-1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
