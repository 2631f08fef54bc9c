"""Look-alike: PFRL's Atari DQN receives uint8 frames; `phi` casts them to float32 inside `batch_states` before the CNN.

Source: https://github.com/pfnet/pfrl/blob/c8cb3328899509be9ca68ca9a6cd2bcfce95725c/examples/atari/reproduction/dqn/train_dqn.py
The example defines `def phi(x): return np.asarray(x, dtype=np.float32) / 255` and passes it to
`agents.DQN(..., phi=phi)`; `DQN._evaluate_model_and_update_recurrent_states` builds the input with
`self.batch_states(batch_obs, self.device, self.phi)` (pfrl/utils/batch_states.py: phi on each
observation, `default_collate`, move to the agent's device). uint8 observations next to float32 conv
weights, cast on purpose: nothing to report. Stand-ins: LargeAtariCNN, DiscreteActionValueHead /
DiscreteActionValue and DQN reduced to acting (greedy, evaluation mode), batch_states as in pfrl.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data._utils.collate import default_collate

def _to_recursive(batched, device):
    if isinstance(batched, torch.Tensor):
        return batched.to(device)
    elif isinstance(batched, list):
        return [x.to(device) for x in batched]
    elif isinstance(batched, tuple):
        return tuple(x.to(device) for x in batched)
    raise TypeError("Unsupported type of data")

def batch_states(states, device, phi):
    """pfrl.utils.batch_states.batch_states"""
    features = [phi(s) for s in states]
    collated_features = default_collate(features)
    if isinstance(features[0], tuple):
        collated_features = tuple(collated_features)
    return _to_recursive(collated_features, device)

class LargeAtariCNN(nn.Module):
    """pfrl.nn.LargeAtariCNN (init left out)."""
    def __init__(self, n_input_channels=4, n_output_channels=512, activation=F.relu):
        super().__init__()
        self.activation = activation
        self.layers = nn.ModuleList([
            nn.Conv2d(n_input_channels, 32, 8, stride=4),
            nn.Conv2d(32, 64, 4, stride=2),
            nn.Conv2d(64, 64, 3, stride=1),
        ])
        self.output = nn.Linear(3136, n_output_channels)
    def forward(self, state):
        h = state
        for layer in self.layers:
            h = self.activation(layer(h))
        return self.activation(self.output(h.view(h.size(0), -1)))

class DiscreteActionValue:
    """pfrl.action_value.DiscreteActionValue, reduced."""
    def __init__(self, q_values):
        self.q_values = q_values
    @property
    def greedy_actions(self):
        return self.q_values.detach().argmax(axis=1).int()

class DiscreteActionValueHead(nn.Module):
    def forward(self, q_values):
        return DiscreteActionValue(q_values)

class DQN:
    """pfrl.agents.DQN, reduced to greedy acting (evaluation mode)."""
    def __init__(self, q_function, gpu=None, phi=lambda x: x, batch_states=batch_states):
        self.model = q_function
        if gpu is not None and gpu >= 0:
            self.device = torch.device("cuda:{}".format(gpu))
            self.model.to(self.device)
        else:
            self.device = torch.device("cpu")
        self.phi = phi
        self.batch_states = batch_states
        self.training = False
    def _evaluate_model_and_update_recurrent_states(self, batch_obs):
        batch_xs = self.batch_states(batch_obs, self.device, self.phi)
        return self.model(batch_xs)
    def batch_act(self, batch_obs):
        with torch.no_grad():
            batch_av = self._evaluate_model_and_update_recurrent_states(batch_obs)
            batch_argmax = batch_av.greedy_actions.detach().cpu().numpy()
        return batch_argmax
    def act(self, obs):
        return self.batch_act([obs])[0]

n_actions = 6
q_func = nn.Sequential(
    LargeAtariCNN(),
    nn.Linear(512, n_actions),
    DiscreteActionValueHead(),
)

def phi(x):
    # Feature extractor
    return np.asarray(x, dtype=np.float32) / 255

agent = DQN(q_func, gpu=None, phi=phi)
obs = np.random.randint(0, 256, size=(4, 84, 84), dtype=np.uint8)   # stacked Atari frames
'''
CELL = '''
action = agent.act(obs)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
