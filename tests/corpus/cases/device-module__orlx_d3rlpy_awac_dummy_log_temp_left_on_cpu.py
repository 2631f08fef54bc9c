"""d3rlpy AWAC on cuda: the dummy temperature `Parameter` module built in `inner_create_impl` is never moved to the GPU.

Source: https://github.com/takuseno/d3rlpy/issues/341
`AWACConfig(...).create(device=True)` then `awac.fit(new_dataset, ...)` failed on the GPU with "Not
all tensors loading to cuda device" (a follow-up to #329, d3rlpy v2.0.4). The maintainer's fix
(commit 6cbaf66c, "Fix AWAC device error") adds `dummy_log_temp.to(self._device)` in
`AWAC.inner_create_impl`: AWAC reuses SAC's modules and `SACImpl.compute_target`, which multiplies
`self._modules.log_temp().exp()` (a (1, 1) zero built on the CPU) with the next-action log-probs on
the GPU. Stand-ins: d3rlpy's `Parameter` module, `NormalPolicy`, the continuous Q-function factory,
`SACModules`, `SACImpl`/`AWACImpl` (losses only: backward and optimizer steps are left out) and a
`fit` that builds the impl lazily and runs update steps on batches from an in-memory ReplayBuffer;
the scalers of the report are left out.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import dataclasses
import math
from typing import Optional
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F


class Parameter(nn.Module):                      # d3rlpy.models.torch.parameters.Parameter
    def __init__(self, data):
        super().__init__()
        self._parameter = nn.Parameter(data)

    def forward(self):
        return self._parameter


class VectorEncoder(nn.Module):
    def __init__(self, in_size, hidden_units=(64, 64)):
        super().__init__()
        layers = []
        for units in hidden_units:
            layers += [nn.Linear(in_size, units), nn.ReLU()]
            in_size = units
        self.layers = nn.Sequential(*layers)

    def forward(self, x):
        return self.layers(x)


class NormalPolicy(nn.Module):
    def __init__(self, encoder, hidden_size, action_size, min_logstd, max_logstd, use_std_parameter):
        super().__init__()
        self._encoder = encoder
        self._mu = nn.Linear(hidden_size, action_size)
        self._min_logstd, self._max_logstd = min_logstd, max_logstd
        self._logstd = nn.Parameter(torch.zeros(1, action_size))

    def forward(self, x):
        h = self._encoder(x)
        logstd = self._logstd.clamp(self._min_logstd, self._max_logstd)
        return self._mu(h), logstd.expand(x.shape[0], -1)


class SquashedGaussianDistribution:
    def __init__(self, mu, logstd):
        self._mean, self._logstd = mu, logstd

    def sample_with_log_prob(self):
        std = self._logstd.exp()
        raw = self._mean + std * torch.randn_like(self._mean)
        log_prob = (-0.5 * ((raw - self._mean) / std) ** 2 - self._logstd
                    - 0.5 * math.log(2 * math.pi)).sum(dim=-1, keepdim=True)
        action = torch.tanh(raw)
        log_prob = log_prob - torch.log(1 - action ** 2 + 1e-6).sum(dim=-1, keepdim=True)
        return action, log_prob


def build_squashed_gaussian_distribution(policy_output):
    return SquashedGaussianDistribution(*policy_output)


class ContinuousMeanQFunction(nn.Module):
    def __init__(self, encoder, hidden_size):
        super().__init__()
        self._encoder = encoder
        self._fc = nn.Linear(hidden_size, 1)

    def forward(self, x, action):
        return self._fc(self._encoder(torch.cat([x, action], dim=1)))


class ContinuousEnsembleQFunctionForwarder:
    def __init__(self, q_funcs):
        self._q_funcs = q_funcs

    def compute_expected_q(self, x, action, reduction="min"):
        values = torch.stack([q(x, action) for q in self._q_funcs])
        return values.min(dim=0).values if reduction == "min" else values.mean(dim=0)

    def compute_target(self, x, action, reduction="min"):
        return self.compute_expected_q(x, action, reduction)


def create_normal_policy(observation_shape, action_size, min_logstd, max_logstd, use_std_parameter, device):
    policy = NormalPolicy(VectorEncoder(observation_shape[0]), 64, action_size,
                          min_logstd, max_logstd, use_std_parameter)
    policy.to(device)
    return policy


def create_continuous_q_function(observation_shape, action_size, n_ensembles, device):
    q_funcs = nn.ModuleList([
        ContinuousMeanQFunction(VectorEncoder(observation_shape[0] + action_size), 64)
        for _ in range(n_ensembles)])
    q_funcs.to(device)
    return q_funcs, ContinuousEnsembleQFunctionForwarder(q_funcs)


@dataclasses.dataclass(frozen=True)
class SACModules:
    policy: NormalPolicy
    q_funcs: nn.ModuleList
    targ_q_funcs: nn.ModuleList
    log_temp: Parameter
    actor_optim: torch.optim.Optimizer
    critic_optim: torch.optim.Optimizer
    temp_optim: Optional[torch.optim.Optimizer]


@dataclasses.dataclass(frozen=True)
class TorchMiniBatch:
    observations: torch.Tensor
    actions: torch.Tensor
    rewards: torch.Tensor
    next_observations: torch.Tensor
    terminals: torch.Tensor

    @classmethod
    def from_batch(cls, batch, device):
        return cls(*(torch.from_numpy(batch[k]).to(device)
                     for k in ("observations", "actions", "rewards", "next_observations", "terminals")))


class SACImpl:
    def __init__(self, observation_shape, action_size, modules, q_func_forwarder,
                 targ_q_func_forwarder, gamma, tau, device):
        self._observation_shape, self._action_size = observation_shape, action_size
        self._modules = modules
        self._q_func_forwarder, self._targ_q_func_forwarder = q_func_forwarder, targ_q_func_forwarder
        self._gamma, self._tau, self._device = gamma, tau, device

    def compute_target(self, batch):
        with torch.no_grad():
            dist = build_squashed_gaussian_distribution(self._modules.policy(batch.next_observations))
            action, log_prob = dist.sample_with_log_prob()
            entropy = self._modules.log_temp().exp() * log_prob
            target = self._targ_q_func_forwarder.compute_target(batch.next_observations, action, "min")
            return target - entropy

    def compute_critic_loss(self, batch, q_tpn):
        y = batch.rewards + self._gamma * q_tpn * (1 - batch.terminals)
        q_t = self._q_func_forwarder.compute_expected_q(batch.observations, batch.actions, "mean")
        return F.mse_loss(q_t, y)

    def update_critic(self, batch):
        q_tpn = self.compute_target(batch)
        loss = self.compute_critic_loss(batch, q_tpn)
        # loss.backward(); self._modules.critic_optim.step()   (no autograd on the simulated GPU)
        return {"critic_loss": loss}


class AWACImpl(SACImpl):
    def __init__(self, *args, lam, n_action_samples, **kwargs):
        super().__init__(*args, **kwargs)
        self._lam, self._n_action_samples = lam, n_action_samples

    def compute_actor_loss(self, batch):
        mu, logstd = self._modules.policy(batch.observations)
        log_probs = (-0.5 * ((batch.actions - mu) / logstd.exp()) ** 2 - logstd).sum(dim=-1, keepdim=True)
        with torch.no_grad():
            q_values = self._q_func_forwarder.compute_expected_q(batch.observations, batch.actions, "min")
            adv = (q_values - q_values.mean()).view(-1)
            weights = F.softmax(adv / self._lam, dim=0).view(-1, 1) * adv.numel()
        return -(log_probs * weights).sum()

    def update(self, batch):
        metrics = self.update_critic(batch)
        metrics["actor_loss"] = self.compute_actor_loss(batch)
        return metrics


@dataclasses.dataclass()
class AWACConfig:
    actor_learning_rate: float = 3e-4
    critic_learning_rate: float = 3e-4
    batch_size: int = 1024
    gamma: float = 0.99
    tau: float = 0.005
    lam: float = 1.0
    n_action_samples: int = 1
    n_critics: int = 2
    update_actor_interval: int = 1

    def create(self, device=False):
        return AWAC(self, device)


class AWAC:
    def __init__(self, config, device):
        self._config = config
        self._device = "cuda:0" if device is True else ("cpu:0" if device is False else device)
        self._impl = None

    def inner_create_impl(self, observation_shape, action_size):
        policy = create_normal_policy(observation_shape, action_size, min_logstd=-6.0, max_logstd=0.0,
                                      use_std_parameter=True, device=self._device)
        q_funcs, q_func_forwarder = create_continuous_q_function(
            observation_shape, action_size, n_ensembles=self._config.n_critics, device=self._device)
        targ_q_funcs, targ_q_func_forwarder = create_continuous_q_function(
            observation_shape, action_size, n_ensembles=self._config.n_critics, device=self._device)
        actor_optim = torch.optim.Adam(policy.parameters(), lr=self._config.actor_learning_rate)
        critic_optim = torch.optim.Adam(q_funcs.parameters(), lr=self._config.critic_learning_rate)

        dummy_log_temp = Parameter(torch.zeros(1, 1))
        modules = SACModules(policy=policy, q_funcs=q_funcs, targ_q_funcs=targ_q_funcs,
                             log_temp=dummy_log_temp, actor_optim=actor_optim,
                             critic_optim=critic_optim, temp_optim=None)
        self._impl = AWACImpl(observation_shape, action_size, modules, q_func_forwarder,
                              targ_q_func_forwarder, gamma=self._config.gamma, tau=self._config.tau,
                              device=self._device, lam=self._config.lam,
                              n_action_samples=self._config.n_action_samples)

    def fit(self, dataset, n_steps, n_steps_per_epoch=10000, save_interval=1, experiment_name=None):
        if self._impl is None:
            self.inner_create_impl(dataset.observation_shape, dataset.action_size)
        history = []
        for _ in range(n_steps):
            batch = TorchMiniBatch.from_batch(dataset.sample_transition_batch(self._config.batch_size),
                                              self._device)
            history.append(self._impl.update(batch))
        return history


class ReplayBuffer:                                  # d3rlpy.dataset.ReplayBuffer, in memory
    def __init__(self, observations, actions, rewards, terminals):
        self._obs, self._act, self._rew, self._term = observations, actions, rewards, terminals
        self.observation_shape, self.action_size = observations.shape[1:], actions.shape[1]

    def sample_transition_batch(self, batch_size):
        idx = np.random.randint(0, len(self._obs) - 1, size=batch_size)
        return {"observations": self._obs[idx], "actions": self._act[idx],
                "rewards": self._rew[idx], "next_observations": self._obs[idx + 1],
                "terminals": self._term[idx]}


rng = np.random.default_rng(0)
new_dataset = ReplayBuffer(
    observations=rng.standard_normal((500, 12)).astype(np.float32),
    actions=rng.uniform(-1, 1, (500, 3)).astype(np.float32),
    rewards=rng.standard_normal((500, 1)).astype(np.float32),
    terminals=(rng.random((500, 1)) < 0.01).astype(np.float32),
)

awac = AWACConfig(
    actor_learning_rate=3e-4,
    critic_learning_rate=5e-4,
    batch_size=128,
    update_actor_interval=1,
    n_action_samples=4,
).create(device=True)
'''
CELL = '''
awac.fit(
    new_dataset,
    n_steps=2,
    n_steps_per_epoch=200,
    save_interval=10,
    experiment_name="AWAC",
)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["awac"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        dummy_log_temp = Parameter(torch.zeros(1, 1))\n",
                  "        dummy_log_temp = Parameter(torch.zeros(1, 1))\n"
                  "        dummy_log_temp.to(self._device)\n")
CLEAN = False
