"""Look-alike: EfficientZero's `update_weights` feeds uint8 Atari frames, int64 actions and float64 targets from the replay buffer, each cast and moved where it is used.

Source: https://github.com/YeWR/EfficientZero/blob/main/core/train.py
The batch arrives as numpy: `obs_batch_ori` (uint8 stacked frames), `action_batch` (int64), masks and
targets (float64). `update_weights` does `torch.from_numpy(obs_batch_ori).to(config.device).float() / 255.0`,
`torch.from_numpy(action_batch).to(config.device).unsqueeze(-1).long()`, `.to(config.device).float()`
for the rest; the categorical targets come from `config.value_phi` (`torch.zeros(...).to(x.device)` +
`scatter_` with `.long()` indices); the value-prefix loss starts as `torch.zeros(batch_size,
device=config.device)`; the LSTM reward hidden state is reset with `torch.zeros(...).to(config.device)`;
`EfficientZeroNet.dynamics` builds the action plane as `torch.ones(...).to(action.device).float()` and
multiplies the int64 action into it; priorities are taken on `.data.cpu()`. Nothing is left behind.
Stand-ins: a one-block representation/dynamics/prediction network with the LSTM value-prefix head,
`config.scalar_transform`, `_phi` and `inverse_value_transform` (their masked sign/NaN assignments
written with `torch.where`, since boolean-mask indexing cannot run on the simulated GPU), and the
forward/loss part of `update_weights` (no backward, no AMP; BatchNorm layers left out, as their
training-mode running-stat update cannot run on the simulated GPU). The model's training-mode
`reward_hidden` uses `.to('cuda')` in the repo; here `'cuda:0'`, what it means on a one-GPU machine.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.nn import L1Loss

class DiscreteSupport(object):
    def __init__(self, min, max, delta=1.):
        self.min, self.max = min, max
        self.range = np.arange(min, max + 1, delta)
        self.size = len(self.range)
        self.delta = delta

class Config:
    device = "cuda:0"
    stacked_observations, image_channel, num_unroll_steps = 2, 3, 3
    batch_size, lstm_hidden_size, lstm_horizon_len = 4, 16, 5
    value_support = DiscreteSupport(-20, 20)
    reward_support = DiscreteSupport(-20, 20)
    prioritized_replay_eps = 1e-6

    def scalar_transform(self, x):
        epsilon = 0.001
        sign = torch.where(x < 0, -1.0, 1.0).float().to(x.device)
        return sign * (torch.sqrt(torch.abs(x) + 1) - 1) + epsilon * x

    def inverse_value_transform(self, value_logits):
        value_probs = torch.softmax(value_logits, dim=1)
        value_support = torch.ones(value_probs.shape)
        value_support[:, :] = torch.from_numpy(np.array([x for x in self.value_support.range]))
        value_support = value_support.to(device=value_probs.device)
        value = (value_support * value_probs).sum(1, keepdim=True)
        epsilon = 0.001
        sign = torch.where(value < 0, -1.0, 1.0).float().to(value.device)
        output = (((torch.sqrt(1 + 4 * epsilon * (torch.abs(value) + 1 + epsilon)) - 1) / (2 * epsilon)) ** 2 - 1)
        output = sign * output
        return torch.where(torch.isnan(output), torch.zeros_like(output), output)

    def value_phi(self, x):
        return self._phi(x, self.value_support.min, self.value_support.max, self.value_support.size)

    def reward_phi(self, x):
        return self._phi(x, self.reward_support.min, self.reward_support.max, self.reward_support.size)

    def _phi(self, x, min, max, set_size):
        x.clamp_(min, max)
        x_low = x.floor()
        x_high = x.ceil()
        p_high = x - x_low
        p_low = 1 - p_high
        target = torch.zeros(x.shape[0], x.shape[1], set_size).to(x.device)
        x_high_idx, x_low_idx = x_high - min, x_low - min
        target.scatter_(2, x_high_idx.long().unsqueeze(-1), p_high.unsqueeze(-1))
        target.scatter_(2, x_low_idx.long().unsqueeze(-1), p_low.unsqueeze(-1))
        return target

    def scalar_value_loss(self, prediction, target):
        return -(torch.log_softmax(prediction, dim=1) * target).sum(1)

config = Config()

class EfficientZeroNet(nn.Module):
    def __init__(self, in_channels, action_space_size, channels=8, hw=6, lstm_hidden_size=16, support=41):
        super().__init__()
        self.action_space_size, self.lstm_hidden_size = action_space_size, lstm_hidden_size
        self.representation_network = nn.Sequential(nn.Conv2d(in_channels, channels, 3, padding=1), nn.ReLU())
        self.dyn_conv = nn.Conv2d(channels + 1, channels, 3, padding=1)
        self.reward_flat = channels * hw * hw
        self.lstm = nn.LSTM(input_size=self.reward_flat, hidden_size=lstm_hidden_size)
        self.fc_value_prefix = nn.Linear(lstm_hidden_size, support)
        self.fc_value = nn.Linear(self.reward_flat, support)
        self.fc_policy = nn.Linear(self.reward_flat, action_space_size)

    def prediction(self, state):
        flat = state.reshape(state.shape[0], -1)
        return self.fc_policy(flat), self.fc_value(flat)

    def initial_inference(self, obs):
        num = obs.size(0)
        state = self.representation_network(obs)
        actor_logit, value = self.prediction(state)
        reward_hidden = (torch.zeros(1, num, self.lstm_hidden_size).to('cuda:0'),
                         torch.zeros(1, num, self.lstm_hidden_size).to('cuda:0'))
        return value, [0. for _ in range(num)], actor_logit, state, reward_hidden

    def dynamics(self, encoded_state, reward_hidden, action):
        action_one_hot = torch.ones((encoded_state.shape[0], 1, encoded_state.shape[2], encoded_state.shape[3])).to(action.device).float()
        action_one_hot = action[:, :, None, None] * action_one_hot / self.action_space_size
        x = torch.cat((encoded_state, action_one_hot), dim=1)
        state = torch.relu(self.dyn_conv(x)) + encoded_state
        value_prefix, reward_hidden = self.lstm(state.reshape(-1, self.reward_flat).unsqueeze(0), reward_hidden)
        return state, reward_hidden, self.fc_value_prefix(value_prefix.squeeze(0))

    def recurrent_inference(self, hidden_state, reward_hidden, action):
        state, reward_hidden, value_prefix = self.dynamics(hidden_state, reward_hidden, action)
        actor_logit, value = self.prediction(state)
        return value, value_prefix, actor_logit, state, reward_hidden

model = EfficientZeroNet(config.stacked_observations * config.image_channel, action_space_size=4)
model.to(config.device)
model.train()

# ReplayBuffer / BatchWorker output (numpy, host memory)
rng = np.random.default_rng(0)
B, K = config.batch_size, config.num_unroll_steps
obs_batch_ori = rng.integers(0, 256, size=(B, (config.stacked_observations + K) * config.image_channel, 6, 6), dtype=np.uint8)
action_batch = rng.integers(0, 4, size=(B, K))
mask_batch = np.ones((B, K))
target_value_prefix = rng.standard_normal((B, K))
target_value = rng.standard_normal((B, K + 1))
target_policy = rng.dirichlet([1.0] * 4, size=(B, K + 1))
weights_lst = rng.random(B)
'''
CELL = '''
obs_batch = torch.from_numpy(obs_batch_ori).to(config.device).float() / 255.0
obs_batch, obs_target_batch = obs_batch[:, 0: config.stacked_observations * config.image_channel, :, :], obs_batch[:, config.image_channel:, :, :]
action_batch_t = torch.from_numpy(action_batch).to(config.device).unsqueeze(-1).long()
mask_batch_t = torch.from_numpy(mask_batch).to(config.device).float()
target_value_prefix_t = torch.from_numpy(target_value_prefix).to(config.device).float()
target_value_t = torch.from_numpy(target_value).to(config.device).float()
target_policy_t = torch.from_numpy(target_policy).to(config.device).float()
weights = torch.from_numpy(weights_lst).to(config.device).float()
batch_size = obs_batch.size(0)

target_value_prefix_phi = config.reward_phi(config.scalar_transform(target_value_prefix_t))
target_value_phi = config.value_phi(config.scalar_transform(target_value_t))

with torch.no_grad():
    value, _, policy_logits, hidden_state, reward_hidden = model.initial_inference(obs_batch)
    scaled_value = config.inverse_value_transform(value)
    value_priority = L1Loss(reduction='none')(scaled_value.squeeze(-1), target_value_t[:, 0])
    value_priority = value_priority.data.cpu() + config.prioritized_replay_eps

    value_loss = config.scalar_value_loss(value, target_value_phi[:, 0])
    policy_loss = -(torch.log_softmax(policy_logits, dim=1) * target_policy_t[:, 0]).sum(1)
    value_prefix_loss = torch.zeros(batch_size, device=config.device)
    for step_i in range(config.num_unroll_steps):
        value, value_prefix, policy_logits, hidden_state, reward_hidden = model.recurrent_inference(hidden_state, reward_hidden, action_batch_t[:, step_i])
        policy_loss += -(torch.log_softmax(policy_logits, dim=1) * target_policy_t[:, step_i + 1]).sum(1) * mask_batch_t[:, step_i]
        value_loss += config.scalar_value_loss(value, target_value_phi[:, step_i + 1]) * mask_batch_t[:, step_i]
        value_prefix_loss += config.scalar_value_loss(value_prefix, target_value_prefix_phi[:, step_i]) * mask_batch_t[:, step_i]
        if (step_i + 1) % config.lstm_horizon_len == 0:
            reward_hidden = (torch.zeros(1, config.batch_size, config.lstm_hidden_size).to(config.device),
                             torch.zeros(1, config.batch_size, config.lstm_hidden_size).to(config.device))
    loss = (0.25 * value_loss + value_prefix_loss + policy_loss)
    weighted_loss = (weights * loss).mean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
