"""OpenSpiel PyTorch DQN agent on a GPU: the networks are moved to cuda by hand, but `step()` builds the info-state tensor on the CPU.

Source: https://github.com/google-deepmind/open_spiel/issues/538
"How to run PyTorch agent on GPU?": the agents subclass `rl_agent.AbstractAgent`, which has no `.to()`,
so the user moved the Q-networks themselves. The answer (MJ10): besides moving `_q_network` and
`_target_q_network`, the agent must move its inputs: `_epsilon_greedy` does
`info_state = torch.Tensor(np.reshape(info_state, [1, -1]))` and feeds it to the network, so it
needs `.to(self.device)` there (and in the learning step).
Stand-ins: open_spiel.python.pytorch.dqn.DQN reduced to `step(is_evaluation=True)` and
`_epsilon_greedy` with a greedy masked argmax; a TimeStep with one player's info state (tic-tac-toe).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import collections
import numpy as np
import torch
from torch import nn

StepOutput = collections.namedtuple("step_output", ["action", "probs"])
TimeStep = collections.namedtuple("TimeStep", ["observations", "rewards", "discounts", "step_type"])

class MLP(nn.Module):
    def __init__(self, input_size, hidden_sizes, output_size):
        super().__init__()
        layers, d = [], input_size
        for h in hidden_sizes:
            layers += [nn.Linear(d, h), nn.ReLU()]
            d = h
        layers.append(nn.Linear(d, output_size))
        self.model = nn.Sequential(*layers)

    def forward(self, x):
        return self.model(x)

class DQN:
    def __init__(self, player_id, state_representation_size, num_actions, hidden_layers_sizes=(64, 64)):
        self.player_id = player_id
        self._num_actions = num_actions
        self._q_network = MLP(state_representation_size, hidden_layers_sizes, num_actions)
        self._target_q_network = MLP(state_representation_size, hidden_layers_sizes, num_actions)

    def _epsilon_greedy(self, info_state, legal_actions, epsilon):
        info_state = torch.Tensor(np.reshape(info_state, [1, -1]))
        q_values = self._q_network(info_state).detach()[0]
        illegal = torch.full_like(q_values, -1e9)
        mask = torch.zeros_like(q_values).scatter_(0, torch.as_tensor(legal_actions, device=q_values.device), 1.0)
        return torch.argmax(torch.where(mask > 0, q_values, illegal)), mask

    def step(self, time_step, is_evaluation=False):
        info_state = time_step.observations["info_state"][self.player_id]
        legal_actions = time_step.observations["legal_actions"][self.player_id]
        action, probs = self._epsilon_greedy(info_state, legal_actions, epsilon=0.0)
        return StepOutput(action=action, probs=probs)

agent = DQN(player_id=0, state_representation_size=27, num_actions=9)
agent._q_network.to("cuda:0")
agent._target_q_network.to("cuda:0")

board = np.zeros(27, dtype=np.float32); board[:9] = 1.0
time_step = TimeStep(observations={"info_state": [board.tolist(), board.tolist()],
                                   "legal_actions": [list(range(9)), list(range(9))],
                                   "current_player": 0},
                     rewards=None, discounts=None, step_type=None)
'''
CELL = '''
agent_output = agent.step(time_step, is_evaluation=True)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["agent"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("info_state = torch.Tensor(np.reshape(info_state, [1, -1]))",
                  "info_state = torch.Tensor(np.reshape(info_state, [1, -1])).to(next(self._q_network.parameters()).device)")
CLEAN = False
