"""Look-alike: recurrent-ppo-truncated-bptt's `enjoy.py` feeds the raw float64 NumPy observation to an LSTM actor-critic that casts it to float32 itself.

Source: https://github.com/MarcoMeter/recurrent-ppo-truncated-bptt/blob/master/enjoy.py
`enjoy.py` loads the model on `torch.device("cpu")`, builds the initial `(hxs, cxs)` with
`model.init_recurrent_cell_states(1, device)` (float32 zeros on the device) and calls
`model(np.expand_dims(obs, 0), recurrent_cell, device, 1)` with the environment's float64 array;
`ActorCriticModel.forward` converts it with `torch.tensor(obs, dtype=torch.float32, device=device)`
before the LSTM, and the sampled action is taken back with `.cpu().numpy()`. A double NumPy
observation going into an LSTM is the classic dtype error, but the cast is inside `forward`.
Reduced: masked-CartPole-sized vector observations, hidden size 32, three steps; CPU only.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.distributions import Categorical
from torch.nn import functional as F

class ActorCriticModel(nn.Module):
    def __init__(self, config, observation_shape, action_space_shape):
        super().__init__()
        self.hidden_size = config["hidden_layer_size"]
        self.recurrence = config["recurrence"]
        self.observation_space_shape = observation_shape
        self.action_space_shape = action_space_shape
        in_features_next_layer = observation_shape[0]
        self.recurrent_layer = nn.LSTM(in_features_next_layer, self.recurrence["hidden_state_size"], batch_first=True)
        self.lin_hidden = nn.Linear(self.recurrence["hidden_state_size"], self.hidden_size)
        self.policy = nn.Sequential(nn.Linear(self.hidden_size, self.hidden_size), nn.ReLU(),
                                    nn.Linear(self.hidden_size, self.action_space_shape[0]))
        self.value = nn.Sequential(nn.Linear(self.hidden_size, self.hidden_size), nn.ReLU(),
                                   nn.Linear(self.hidden_size, 1))

    def forward(self, obs, recurrent_cell, device, sequence_length=1):
        h = torch.tensor(obs, dtype=torch.float32, device=device)           # Convert vec_obs to tensor
        h, recurrent_cell = self.recurrent_layer(h.unsqueeze(1), recurrent_cell)
        h = h.squeeze(1)
        h = F.relu(h)
        h = F.relu(self.lin_hidden(h))
        value = self.value(h).reshape(-1)
        pi = Categorical(logits=self.policy(h))
        return pi, value, recurrent_cell

    def init_recurrent_cell_states(self, num_sequences, device):
        hxs = torch.zeros((num_sequences), self.recurrence["hidden_state_size"], dtype=torch.float32, device=device).unsqueeze(0)
        cxs = torch.zeros((num_sequences), self.recurrence["hidden_state_size"], dtype=torch.float32, device=device).unsqueeze(0)
        return hxs, cxs

config = {"hidden_layer_size": 32, "recurrence": {"layer_type": "lstm", "hidden_state_size": 32}}
device = torch.device("cpu")
model = ActorCriticModel(config, (2,), (2,))
model.to(device)
model.eval()
hxs, cxs = model.init_recurrent_cell_states(1, device)
recurrent_cell = (hxs, cxs)
rng = np.random.RandomState(0)
obs = rng.uniform(-1, 1, size=(2,))          # env.reset(): a float64 NumPy array
'''
CELL = '''
episode_actions = []
with torch.no_grad():
    for _ in range(3):
        policy, value, recurrent_cell = model(np.expand_dims(obs, 0), recurrent_cell, device, 1)
        action = policy.sample().cpu().numpy()
        episode_actions.append(int(action[0]))
        obs = rng.uniform(-1, 1, size=(2,))  # env.step(int(action[0]))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
