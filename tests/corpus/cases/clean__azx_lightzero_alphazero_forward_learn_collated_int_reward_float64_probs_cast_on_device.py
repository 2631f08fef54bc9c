"""Look-alike: LightZero's AlphaZero `_forward_learn` collates self-play samples whose game result is a Python int and whose MCTS policy is float64, then casts each on the way to the device.

Source: https://github.com/opendilab/LightZero/blob/main/lzero/policy/alphazero.py
Self-play stores per move `{'obs': {'observation', 'action_mask', ...}, 'probs': mcts_probs, 'reward':
winner}`: the observation is float32 board planes (`TicTacToeEnv.current_state`), `probs` a float64
numpy visit distribution and `reward` a Python int, so `default_collate` yields float32, float64 and
int64 tensors. `_forward_learn` runs `inputs = default_collate(inputs)`, `inputs = to_device(inputs,
self._device)` when `self._cuda`, then `state_batch.to(device=self._device, dtype=torch.float)` (same for
`mcts_probs` and `reward`) before `compute_policy_value`, the policy cross-entropy and
`F.mse_loss(values.view(-1), reward)`. Mixed dtypes from the buffer, all cast where they meet the model.
Stand-ins: `ding.torch_utils.to_device` (recursive move), a small `AlphaZeroModel` (conv trunk without
BatchNorm, whose training-mode update cannot run on the simulated GPU) and the policy's learn step up to
the total loss (no backward).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import default_collate

def to_device(item, device):
    """ding.torch_utils.to_device: move every tensor of a nested dict/list/tuple."""
    if isinstance(item, torch.Tensor):
        return item.to(device)
    if isinstance(item, dict):
        return {k: to_device(v, device) for k, v in item.items()}
    if isinstance(item, (list, tuple)):
        return type(item)(to_device(t, device) for t in item)
    return item

class AlphaZeroModel(nn.Module):
    def __init__(self, observation_shape=(3, 3, 3), action_space_size=9, num_channels=16):
        super().__init__()
        c, h, w = observation_shape
        self.representation_network = nn.Sequential(nn.Conv2d(c, num_channels, 3, padding=1), nn.ReLU())
        self.policy_head = nn.Linear(num_channels * h * w, action_space_size)
        self.value_head = nn.Sequential(nn.Linear(num_channels * h * w, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, state_batch):
        encoded = self.representation_network(state_batch).flatten(1)
        return self.policy_head(encoded), torch.tanh(self.value_head(encoded))

    def compute_policy_value(self, state_batch):
        logit, value = self.forward(state_batch)
        prob = torch.nn.functional.softmax(logit, dim=-1)
        return prob, value

class AlphaZeroPolicy:
    def __init__(self, model, device="cuda:0", value_weight=1.0, entropy_weight=0.0):
        self._device = device
        self._cuda = device.startswith("cuda")
        self._model = model
        self._learn_model = model
        self._value_weight, self._entropy_weight = value_weight, entropy_weight

    def _forward_learn(self, inputs):
        inputs = default_collate(inputs)
        if self._cuda:
            inputs = to_device(inputs, self._device)
        self._learn_model.train()

        state_batch = inputs['obs']['observation']
        mcts_probs = inputs['probs']
        reward = inputs['reward']

        state_batch = state_batch.to(device=self._device, dtype=torch.float)
        mcts_probs = mcts_probs.to(device=self._device, dtype=torch.float)
        reward = reward.to(device=self._device, dtype=torch.float)

        action_probs, values = self._learn_model.compute_policy_value(state_batch)
        policy_log_probs = torch.log(action_probs)
        entropy = torch.mean(-torch.sum(action_probs * policy_log_probs, 1))
        policy_loss = -torch.mean(torch.sum(mcts_probs * policy_log_probs, 1))
        value_loss = F.mse_loss(values.view(-1), reward)
        total_loss = self._value_weight * value_loss + policy_loss - self._entropy_weight * entropy
        return total_loss

model = AlphaZeroModel()
model.to("cuda:0")
policy = AlphaZeroPolicy(model, device="cuda:0")

rng = np.random.default_rng(0)
def self_play_sample():
    board = rng.integers(0, 3, size=(3, 3))
    obs = np.array([board == 1, board == 2, np.full((3, 3), 1)], dtype=np.float32)
    visits = rng.random(9)
    return {'obs': {'observation': obs, 'action_mask': (board == 0).astype(np.int8).reshape(-1)},
            'probs': visits / visits.sum(),                 # float64
            'reward': int(rng.choice([-1, 0, 1]))}          # python int
train_data = [self_play_sample() for _ in range(8)]
'''
CELL = '''
with torch.no_grad():
    total_loss = policy._forward_learn(train_data)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
