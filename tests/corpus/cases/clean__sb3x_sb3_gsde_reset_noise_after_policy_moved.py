"""Look-alike: PPO with gSDE resamples its exploration matrix with `reset_noise()` once the policy is on the GPU.

Source: https://github.com/DLR-RM/stable-baselines3/blob/master/stable_baselines3/common/on_policy_algorithm.py
(`collect_rollouts`: `if self.use_sde: self.policy.reset_noise(env.num_envs)` before the first
action) with `StateDependentNoiseDistribution.sample_weights` from
stable_baselines3/common/distributions.py. The matrix first sampled while the policy was built on
the CPU is replaced by one drawn from the moved `log_std`, on the policy's device, so stochastic
actions mix no devices. Nothing to report (compare the loaded model that skips this step).
Stand-in: the gSDE distribution, actor-critic policy and PPO construction, reduced.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch as th
from torch import nn
from torch.distributions import Normal

th.distributions.Distribution.set_default_validate_args(False)   # argument checks off, as under python -O

class StateDependentNoiseDistribution:
    """stable_baselines3.common.distributions.StateDependentNoiseDistribution (reduced, no squashing)."""
    def __init__(self, action_dim, full_std=True, epsilon=1e-6):
        self.action_dim = action_dim
        self.full_std = full_std
        self.epsilon = epsilon
        self.latent_sde_dim = None
        self.weights_dist = None
        self.exploration_mat = None
        self.exploration_matrices = None
        self.distribution = None
        self._latent_sde = None

    def get_std(self, log_std):
        return th.exp(log_std)

    def sample_weights(self, log_std, batch_size=1):
        std = self.get_std(log_std)
        self.weights_dist = Normal(th.zeros_like(std), std)
        self.exploration_mat = self.weights_dist.rsample()
        self.exploration_matrices = self.weights_dist.rsample((batch_size,))

    def proba_distribution_net(self, latent_dim, log_std_init=-2.0, latent_sde_dim=None):
        mean_actions_net = nn.Linear(latent_dim, self.action_dim)
        self.latent_sde_dim = latent_dim if latent_sde_dim is None else latent_sde_dim
        log_std = th.ones(self.latent_sde_dim, self.action_dim)
        log_std = nn.Parameter(log_std * log_std_init, requires_grad=True)
        self.sample_weights(log_std)
        return mean_actions_net, log_std

    def proba_distribution(self, mean_actions, log_std, latent_sde):
        self._latent_sde = latent_sde
        variance = th.mm(self._latent_sde ** 2, self.get_std(log_std) ** 2)
        self.distribution = Normal(mean_actions, th.sqrt(variance + self.epsilon))
        return self

    def get_noise(self, latent_sde):
        latent_sde = latent_sde.detach()
        if len(latent_sde) == 1 or len(latent_sde) != len(self.exploration_matrices):
            return th.mm(latent_sde, self.exploration_mat)
        latent_sde = latent_sde.unsqueeze(dim=1)
        noise = th.bmm(latent_sde, self.exploration_matrices)
        return noise.squeeze(dim=1)

    def sample(self):
        noise = self.get_noise(self._latent_sde)
        return self.distribution.mean + noise

    def mode(self):
        return self.distribution.mean

    def get_actions(self, deterministic=False):
        if deterministic:
            return self.mode()
        return self.sample()

class ActorCriticPolicy(nn.Module):
    """stable_baselines3.common.policies.ActorCriticPolicy with use_sde=True (reduced)."""
    def __init__(self, obs_dim, action_dim, net_arch=64, log_std_init=-2.0):
        super().__init__()
        self.obs_dim = obs_dim
        self.mlp_extractor = nn.Sequential(nn.Linear(obs_dim, net_arch), nn.Tanh(), nn.Linear(net_arch, net_arch), nn.Tanh())
        self.value_net = nn.Linear(net_arch, 1)
        self.action_dist = StateDependentNoiseDistribution(action_dim)
        self.action_net, self.log_std = self.action_dist.proba_distribution_net(
            latent_dim=net_arch, log_std_init=log_std_init)

    @property
    def device(self):
        return next(self.parameters()).device

    def reset_noise(self, n_envs=1):
        self.action_dist.sample_weights(self.log_std, batch_size=n_envs)

    def _predict(self, observation, deterministic=False):
        latent_pi = self.mlp_extractor(observation)
        mean_actions = self.action_net(latent_pi)
        distribution = self.action_dist.proba_distribution(mean_actions, self.log_std, latent_pi)
        return distribution.get_actions(deterministic=deterministic)

    def predict(self, observation, deterministic=False):
        observation = th.as_tensor(observation).reshape(-1, self.obs_dim).to(self.device)
        with th.no_grad():
            actions = self._predict(observation, deterministic=deterministic)
        return actions

class PPO:
    def __init__(self, obs_dim, action_dim, use_sde=True, device="cuda:0", _init_setup_model=True):
        self.obs_dim, self.action_dim, self.use_sde = obs_dim, action_dim, use_sde
        self.device = th.device(device)
        if _init_setup_model:
            self._setup_model()

    def _setup_model(self):
        self.policy = ActorCriticPolicy(self.obs_dim, self.action_dim)
        self.policy = self.policy.to(self.device)

    def predict(self, observation, deterministic=False):
        return self.policy.predict(observation, deterministic)

    @classmethod
    def load(cls, data, device="cuda:0"):
        model = cls(data["obs_dim"], data["action_dim"], use_sde=data["use_sde"], device=device,
                    _init_setup_model=False)
        model._setup_model()
        # (set_parameters(data["policy"]) left out: loading the weights does not touch the exploration matrix)
        return model

model = PPO(obs_dim=28, action_dim=8, use_sde=True, device="cuda:0")     # AntBulletEnv: 28 obs, 8 actions
n_envs = 1
# OnPolicyAlgorithm.collect_rollouts(): `if self.use_sde: self.policy.reset_noise(env.num_envs)`
model.policy.reset_noise(n_envs)
obs = np.random.randn(n_envs, 28).astype(np.float32)     # self._last_obs
'''
CELL = '''
action = model.predict(obs, deterministic=False)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
