"""OpenSpiel PyTorch NFSP on a GPU: the average-policy network is moved to cuda, `_act` feeds it a CPU info state.

Source: https://github.com/google-deepmind/open_spiel/pull/1007
"[draft] add gpu support for pytorch DQN and NFSP": the NFSP agent (Leduc/Kuhn poker) has no device
handling; after moving `_avg_network` to the GPU, the average-policy branch of `step()` fails because
`_act` builds `torch.Tensor(info_state)` on the CPU. The PR adds a device to the agents and moves the
inputs to it ("follows the approach outlined in #538").
Stand-ins: open_spiel.python.pytorch.nfsp.NFSP reduced to the average-policy mode of `step()` and
`_act` (masked softmax over legal actions, no numpy round-trip); a Kuhn-poker-sized TimeStep.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import collections
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

StepOutput = collections.namedtuple("step_output", ["action", "probs"])

class MLP(nn.Module):
    def __init__(self, input_size, hidden_sizes, output_size):
        super().__init__()
        self.fc1 = nn.Linear(input_size, hidden_sizes[0])
        self.fc2 = nn.Linear(hidden_sizes[0], output_size)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))

class NFSP:
    def __init__(self, player_id, state_representation_size, num_actions, hidden_layers_sizes=(64,)):
        self.player_id = player_id
        self._num_actions = num_actions
        self._avg_network = MLP(state_representation_size, hidden_layers_sizes, num_actions)
        self._mode = "average_policy"

    def _act(self, info_state, legal_actions):
        info_state = np.reshape(info_state, [1, -1])
        action_values = self._avg_network(torch.Tensor(info_state))
        mask = torch.zeros_like(action_values).index_fill_(
            1, torch.as_tensor(legal_actions, device=action_values.device), 1.0)
        action_probs = F.softmax(action_values.masked_fill(mask == 0, -1e9), dim=1).detach()
        return torch.argmax(action_probs[0]), action_probs[0]

    def step(self, time_step, is_evaluation=False):
        info_state = time_step["info_state"][self.player_id]
        legal_actions = time_step["legal_actions"][self.player_id]
        action, probs = self._act(info_state, legal_actions)
        return StepOutput(action=action, probs=probs)

info_state_size, num_actions = 11, 2           # kuhn_poker
agents = [NFSP(idx, info_state_size, num_actions) for idx in range(2)]
for agent in agents:
    agent._avg_network.to("cuda:0")

time_step = {"info_state": [np.random.rand(info_state_size).tolist() for _ in range(2)],
             "legal_actions": [[0, 1], [0, 1]]}
'''
CELL = '''
agent_output = agents[0].step(time_step, is_evaluation=True)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["agents[0]"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("action_values = self._avg_network(torch.Tensor(info_state))",
                  "action_values = self._avg_network(torch.Tensor(info_state).to(next(self._avg_network.parameters()).device))")
CLEAN = False
