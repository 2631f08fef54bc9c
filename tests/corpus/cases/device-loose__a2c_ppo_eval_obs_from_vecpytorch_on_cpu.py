"""pytorch-a2c-ppo-acktr-gail evaluation: the eval envs' observations stay on the CPU, the policy is on the GPU.

Source: https://github.com/ikostrikov/pytorch-a2c-ppo-acktr-gail/issues/117
The new evaluation block in main.py calls `actor_critic.act(obs, eval_recurrent_hidden_states,
eval_masks, deterministic=True)` with `obs = eval_envs.reset()`. The hidden states and masks are
made with `device=device`, but `VecPyTorch.reset()` returns `torch.from_numpy(obs).float()` on the
CPU (training never noticed: it copies obs into the on-device rollout storage). The issue's fix is
`obs = obs.to(device)` (the merged PR #118 moved that `.to(device)` into VecPyTorch). Stand-in: a
numpy dummy vec-env, VecPyTorch as it was before the fix, and the repo's MLP Policy (Categorical
head reduced to its deterministic `mode()`, an argmax).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import numpy as np
import torch
from torch import nn

device = torch.device("cuda:0")
num_processes = 4

class DummyVecEnv:
    """baselines DummyVecEnv stand-in: CartPole-like numpy observations."""
    def __init__(self, num_envs, obs_dim=4, n_actions=2):
        self.num_envs, self.obs_dim, self.n_actions = num_envs, obs_dim, n_actions

    def reset(self):
        return np.zeros((self.num_envs, self.obs_dim), dtype=np.float32)

class VecPyTorch:
    def __init__(self, venv):
        self.venv = venv
        # TODO: Fix data types

    def reset(self):
        obs = self.venv.reset()
        obs = torch.from_numpy(obs).float()
        return obs

def make_vec_envs(num_processes, device):
    return VecPyTorch(DummyVecEnv(num_processes))

class MLPBase(nn.Module):
    def __init__(self, num_inputs, hidden_size=64):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(num_inputs, hidden_size), nn.Tanh(),
                                   nn.Linear(hidden_size, hidden_size), nn.Tanh())
        self.critic = nn.Sequential(nn.Linear(num_inputs, hidden_size), nn.Tanh(),
                                    nn.Linear(hidden_size, hidden_size), nn.Tanh())
        self.critic_linear = nn.Linear(hidden_size, 1)
        self.output_size = hidden_size
        self.recurrent_hidden_state_size = 1

    def forward(self, inputs, rnn_hxs, masks):
        hidden_critic = self.critic(inputs)
        hidden_actor = self.actor(inputs)
        return self.critic_linear(hidden_critic), hidden_actor, rnn_hxs

class Policy(nn.Module):
    def __init__(self, obs_dim, n_actions):
        super().__init__()
        self.base = MLPBase(obs_dim)
        self.dist = nn.Linear(self.base.output_size, n_actions)   # Categorical logits

    @property
    def recurrent_hidden_state_size(self):
        return self.base.recurrent_hidden_state_size

    def act(self, inputs, rnn_hxs, masks, deterministic=False):
        value, actor_features, rnn_hxs = self.base(inputs, rnn_hxs, masks)
        logits = self.dist(actor_features)
        action = logits.argmax(dim=-1, keepdim=True)              # dist.mode()
        action_log_probs = torch.log_softmax(logits, dim=-1).gather(1, action)
        return value, action, action_log_probs, rnn_hxs

envs = make_vec_envs(num_processes, device)
actor_critic = Policy(4, 2)
actor_critic.to(device)

# evaluation block of main.py
eval_envs = make_vec_envs(num_processes, device)
eval_episode_rewards = []
obs = eval_envs.reset()
eval_recurrent_hidden_states = torch.zeros(num_processes,
                                           actor_critic.recurrent_hidden_state_size, device=device)
eval_masks = torch.zeros(num_processes, 1, device=device)
'''
CELL = '''
with torch.no_grad():
    _, action, _, eval_recurrent_hidden_states = actor_critic.act(
        obs, eval_recurrent_hidden_states, eval_masks, deterministic=True)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["obs"]
FIX = "namespace"
REFERENCE_FIX = '''
obs = obs.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
