"""Look-alike: d3rlpy DiscreteCQL on Atari frames: uint8 observations and integer actions are converted to device tensors by `TorchMiniBatch.from_batch`, scaled by `PixelObservationScaler`, and the (now float) actions are cast back with `.long()` for the one-hot picks.

Source: https://github.com/takuseno/d3rlpy (d3rlpy/torch_utility.py convert_to_torch and
TorchMiniBatch.from_batch; d3rlpy/preprocessing/observation_scalers.py PixelObservationScaler;
d3rlpy/algos/qlearning/torch/dqn_impl.py and cql_impl.py; d3rlpy/models/torch/q_functions/)
The replay buffer holds numpy uint8 frames (stacked 4 x 84 x 84) and int64 actions.
`convert_to_torch(array, device)` makes `torch.tensor(array, dtype=uint8 if the array is uint8 else
float32, device=device).float()`, so every field is a float32 tensor on the algorithm's device;
`PixelObservationScaler.transform` divides the frames by 255, and `DQNImpl.compute_loss` /
`DiscreteCQLImpl.compute_loss` pass `batch.actions.long()` to `F.one_hot`. Stand-ins: the Nature
DQN encoder, `DiscreteMeanQFunction` and its forwarder, DoubleDQN's target and the CQL loss
(backward and optimizer steps are left out: no autograd on the simulated GPU); the batch is drawn
from in-memory numpy arrays.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import dataclasses
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def convert_to_torch(array, device):
    dtype = torch.uint8 if array.dtype == np.uint8 else torch.float32
    tensor = torch.tensor(data=array, dtype=dtype, device=device)
    return tensor.float()


class PixelObservationScaler:
    def transform(self, x):
        return x.float() / 255.0


@dataclasses.dataclass(frozen=True)
class TorchMiniBatch:
    observations: torch.Tensor
    actions: torch.Tensor
    rewards: torch.Tensor
    next_observations: torch.Tensor
    terminals: torch.Tensor
    intervals: torch.Tensor

    @classmethod
    def from_batch(cls, batch, device, observation_scaler=None):
        observations = convert_to_torch(batch["observations"], device)
        actions = convert_to_torch(batch["actions"], device)
        rewards = convert_to_torch(batch["rewards"], device)
        next_observations = convert_to_torch(batch["next_observations"], device)
        terminals = convert_to_torch(batch["terminals"], device)
        intervals = convert_to_torch(batch["intervals"], device)
        if observation_scaler:
            observations = observation_scaler.transform(observations)
            next_observations = observation_scaler.transform(next_observations)
        return cls(observations, actions, rewards, next_observations, terminals, intervals)


class PixelEncoder(nn.Module):
    def __init__(self, observation_shape, feature_size=512):
        super().__init__()
        self._cnn = nn.Sequential(
            nn.Conv2d(observation_shape[0], 32, 8, stride=4), nn.ReLU(),
            nn.Conv2d(32, 64, 4, stride=2), nn.ReLU(),
            nn.Conv2d(64, 64, 3, stride=1), nn.ReLU(), nn.Flatten())
        self._last_layers = nn.Sequential(nn.Linear(64 * 7 * 7, feature_size), nn.ReLU())

    def forward(self, x):
        return self._last_layers(self._cnn(x))


class DiscreteMeanQFunction(nn.Module):
    def __init__(self, encoder, hidden_size, action_size):
        super().__init__()
        self._encoder = encoder
        self._fc = nn.Linear(hidden_size, action_size)

    def forward(self, x):
        return self._fc(self._encoder(x))


def compute_huber_loss(y, target, beta=1.0):
    diff = target - y
    cond = diff.detach().abs() < beta
    return torch.where(cond, 0.5 * diff ** 2, beta * (diff.abs() - 0.5 * beta))


def pick_value_by_action(values, action, keepdim=False):
    one_hot = F.one_hot(action.view(-1), num_classes=values.shape[1])
    return (values * one_hot.float()).sum(dim=1, keepdim=keepdim)


class DiscreteMeanQFunctionForwarder:
    def __init__(self, q_func, action_size):
        self._q_func, self._action_size = q_func, action_size

    def compute_expected_q(self, x):
        return self._q_func(x)

    def compute_error(self, observations, actions, rewards, target, terminals, gamma=0.99):
        one_hot = F.one_hot(actions.view(-1), num_classes=self._action_size)
        value = (self._q_func(observations) * one_hot.float()).sum(dim=1, keepdim=True)
        y = rewards + gamma * target * (1 - terminals)
        return compute_huber_loss(value, y).mean()

    def compute_target(self, x, action):
        return pick_value_by_action(self._q_func(x), action, keepdim=True)


class DiscreteCQLImpl:
    def __init__(self, q_func, targ_q_func, action_size, gamma, alpha, device):
        self._q_func_forwarder = DiscreteMeanQFunctionForwarder(q_func, action_size)
        self._targ_q_func_forwarder = DiscreteMeanQFunctionForwarder(targ_q_func, action_size)
        self.action_size, self._gamma, self._alpha, self.device = action_size, gamma, alpha, device

    def compute_target(self, batch):
        with torch.no_grad():
            action = self._q_func_forwarder.compute_expected_q(batch.next_observations).argmax(dim=1)
            return self._targ_q_func_forwarder.compute_target(batch.next_observations, action)

    def _compute_conservative_loss(self, obs_t, act_t):
        values = self._q_func_forwarder.compute_expected_q(obs_t)
        logsumexp = torch.logsumexp(values, dim=1, keepdim=True)
        one_hot = F.one_hot(act_t.view(-1), num_classes=self.action_size)
        data_values = (values * one_hot).sum(dim=1, keepdim=True)
        return (logsumexp - data_values).mean()

    def compute_loss(self, batch, q_tpn):
        td_loss = self._q_func_forwarder.compute_error(
            observations=batch.observations, actions=batch.actions.long(), rewards=batch.rewards,
            target=q_tpn, terminals=batch.terminals, gamma=self._gamma ** batch.intervals)
        conservative_loss = self._compute_conservative_loss(batch.observations, batch.actions.long())
        return td_loss + self._alpha * conservative_loss

    def update(self, batch):
        q_tpn = self.compute_target(batch)
        loss = self.compute_loss(batch, q_tpn)
        # loss.backward(); optim.step()   (no autograd on the simulated GPU)
        return {"loss": loss}


device = "cuda:0"
observation_shape, action_size = (4, 84, 84), 4
q_func = DiscreteMeanQFunction(PixelEncoder(observation_shape), 512, action_size).to(device)
targ_q_func = DiscreteMeanQFunction(PixelEncoder(observation_shape), 512, action_size).to(device)
impl = DiscreteCQLImpl(q_func, targ_q_func, action_size, gamma=0.99, alpha=4.0, device=device)
observation_scaler = PixelObservationScaler()

rng = np.random.default_rng(0)
frames = rng.integers(0, 256, size=(200, 4, 84, 84), dtype=np.uint8)
actions = rng.integers(0, action_size, size=(200, 1))
rewards = rng.choice([0.0, 1.0], size=(200, 1)).astype(np.float32)
terminals = np.zeros((200, 1), dtype=np.float32)
'''
CELL = '''
idx = rng.integers(0, 199, size=32)
batch = {"observations": frames[idx], "actions": actions[idx], "rewards": rewards[idx],
         "next_observations": frames[idx + 1], "terminals": terminals[idx],
         "intervals": np.ones((32, 1), dtype=np.float32)}
torch_batch = TorchMiniBatch.from_batch(batch, device=impl.device, observation_scaler=observation_scaler)
metrics = impl.update(torch_batch)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
