"""pytorch-a2c-ppo-acktr-gail training loop: rewards and done-masks stay on the CPU and are copy_'d into on-device rollouts.

Source: https://github.com/ikostrikov/pytorch-a2c-ppo-acktr-gail/pull/118
The PR (fixing issue #117) made VecPyTorch move observations to the device; the rewards it returns
stay CPU tensors, and main.py builds the done-masks as `torch.FloatTensor(...)` on the CPU. Both go
into `rollouts.insert(...)`, whose `self.rewards[self.step].copy_(rewards)` and
`self.masks[self.step + 1].copy_(masks)` copy across devices into the storage that
`rollouts.to(device)` placed with the policy. That is the intended layout, and training runs.
Stand-in: a numpy dummy vec-env that ignores the actions (the real wrapper sends
`actions.cpu().numpy()` to the worker processes), the repo's MLP Policy with the Categorical head
reduced to sampling-free argmax, RolloutStorage as in the PR's tree; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

device = torch.device("meta")   # the GPU, simulated with meta
num_processes, num_steps, obs_dim, n_actions = 4, 5, 4, 2

class DummyVecEnv:
    def __init__(self, num_envs):
        self.num_envs = num_envs
        self.rng = np.random.RandomState(0)

    def reset(self):
        return self.rng.randn(self.num_envs, obs_dim).astype(np.float32)

    def step_async(self, actions):
        self.actions = actions

    def step_wait(self):
        obs = self.rng.randn(self.num_envs, obs_dim).astype(np.float32)
        reward = [np.float32(1.0)] * self.num_envs
        done = [bool(d) for d in self.rng.rand(self.num_envs) < 0.1]
        infos = [{"episode": {"r": 10.0}} if d else {} for d in done]
        return obs, reward, done, infos

class VecPyTorch:
    def __init__(self, venv, device):
        self.venv, self.device = venv, device

    def reset(self):
        obs = self.venv.reset()
        obs = torch.from_numpy(obs).float().to(self.device)
        return obs

    def step(self, actions):
        self.venv.step_async(actions.squeeze(1))
        obs, reward, done, info = self.venv.step_wait()
        obs = torch.from_numpy(obs).float().to(self.device)
        reward = torch.from_numpy(np.expand_dims(np.stack(reward), 1)).float()
        return obs, reward, done, info

class Policy(nn.Module):
    def __init__(self, obs_dim, n_actions, hidden_size=64):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(obs_dim, hidden_size), nn.Tanh(),
                                   nn.Linear(hidden_size, hidden_size), nn.Tanh())
        self.critic = nn.Sequential(nn.Linear(obs_dim, hidden_size), nn.Tanh(),
                                    nn.Linear(hidden_size, hidden_size), nn.Tanh())
        self.critic_linear = nn.Linear(hidden_size, 1)
        self.dist = nn.Linear(hidden_size, n_actions)
        self.recurrent_hidden_state_size = 1

    def act(self, inputs, rnn_hxs, masks, deterministic=False):
        value = self.critic_linear(self.critic(inputs))
        logits = self.dist(self.actor(inputs))
        action = logits.argmax(dim=-1, keepdim=True)
        action_log_probs = torch.log_softmax(logits, dim=-1).gather(1, action)
        return value, action, action_log_probs, rnn_hxs

    def get_value(self, inputs, rnn_hxs, masks):
        return self.critic_linear(self.critic(inputs))

class RolloutStorage(object):
    def __init__(self, num_steps, num_processes, obs_shape, recurrent_hidden_state_size):
        self.obs = torch.zeros(num_steps + 1, num_processes, *obs_shape)
        self.recurrent_hidden_states = torch.zeros(num_steps + 1, num_processes, recurrent_hidden_state_size)
        self.rewards = torch.zeros(num_steps, num_processes, 1)
        self.value_preds = torch.zeros(num_steps + 1, num_processes, 1)
        self.returns = torch.zeros(num_steps + 1, num_processes, 1)
        self.action_log_probs = torch.zeros(num_steps, num_processes, 1)
        self.actions = torch.zeros(num_steps, num_processes, 1).long()
        self.masks = torch.ones(num_steps + 1, num_processes, 1)
        self.num_steps = num_steps
        self.step = 0

    def to(self, device):
        self.obs = self.obs.to(device)
        self.recurrent_hidden_states = self.recurrent_hidden_states.to(device)
        self.rewards = self.rewards.to(device)
        self.value_preds = self.value_preds.to(device)
        self.returns = self.returns.to(device)
        self.action_log_probs = self.action_log_probs.to(device)
        self.actions = self.actions.to(device)
        self.masks = self.masks.to(device)

    def insert(self, obs, recurrent_hidden_states, actions, action_log_probs, value_preds, rewards, masks):
        self.obs[self.step + 1].copy_(obs)
        self.recurrent_hidden_states[self.step + 1].copy_(recurrent_hidden_states)
        self.actions[self.step].copy_(actions)
        self.action_log_probs[self.step].copy_(action_log_probs)
        self.value_preds[self.step].copy_(value_preds)
        self.rewards[self.step].copy_(rewards)
        self.masks[self.step + 1].copy_(masks)
        self.step = (self.step + 1) % self.num_steps

    def compute_returns(self, next_value, gamma):
        self.returns[-1] = next_value
        for step in reversed(range(self.rewards.size(0))):
            self.returns[step] = self.returns[step + 1] * gamma * self.masks[step + 1] + self.rewards[step]

envs = VecPyTorch(DummyVecEnv(num_processes), device)
actor_critic = Policy(obs_dim, n_actions)
actor_critic.to(device)
rollouts = RolloutStorage(num_steps, num_processes, (obs_dim,), actor_critic.recurrent_hidden_state_size)
rollouts.to(device)   # main.py copies the first obs in before this .to; meta cannot copy out
obs = envs.reset()
rollouts.obs[0].copy_(obs)
episode_rewards = []
'''
CELL = '''
for step in range(num_steps):
    with torch.no_grad():
        value, action, action_log_prob, recurrent_hidden_states = actor_critic.act(
            rollouts.obs[step], rollouts.recurrent_hidden_states[step], rollouts.masks[step])

    obs, reward, done, infos = envs.step(action)
    for info in infos:
        if 'episode' in info.keys():
            episode_rewards.append(info['episode']['r'])

    # If done then clean the history of observations.
    masks = torch.FloatTensor([[0.0] if done_ else [1.0] for done_ in done])
    rollouts.insert(obs, recurrent_hidden_states, action, action_log_prob, value, reward, masks)

with torch.no_grad():
    next_value = actor_critic.get_value(rollouts.obs[-1], rollouts.recurrent_hidden_states[-1],
                                        rollouts.masks[-1]).detach()
rollouts.compute_returns(next_value, 0.99)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
