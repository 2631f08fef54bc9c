"""muzero-general: helper tensors made inside `support_to_scalar` and the MCTS observation follow the model's device.

Source: https://github.com/werner-duvaud/muzero-general/blob/master/models.py
`support_to_scalar(logits, support_size)` builds the support with `torch.tensor([x for x in
range(-support_size, support_size + 1)])...to(device=probabilities.device)`, and in self_play.py the
MCTS does `observation = torch.tensor(observation).float().unsqueeze(0).to(next(model.parameters()).device)`
before `model.initial_inference(observation)`. Look-alike: tensors created from Python lists / numpy
inside helpers, next to a cuda network, correctly placed.
Stand-ins: a fully-connected MuZero network (representation + prediction heads) and the root
expansion of the MCTS.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

def support_to_scalar(logits, support_size):
    probabilities = torch.softmax(logits, dim=1)
    support = (
        torch.tensor([x for x in range(-support_size, support_size + 1)])
        .expand(probabilities.shape)
        .float()
        .to(device=probabilities.device)
    )
    x = torch.sum(support * probabilities, dim=1, keepdim=True)
    x = torch.sign(x) * (((torch.sqrt(1 + 4 * 0.001 * (torch.abs(x) + 1 + 0.001)) - 1) / (2 * 0.001)) ** 2 - 1)
    return x

class MuZeroFullyConnectedNetwork(nn.Module):
    def __init__(self, observation_size, action_space_size, encoding_size=16, support_size=10):
        super().__init__()
        self.support_size = support_size
        self.representation_network = nn.Sequential(nn.Linear(observation_size, 32), nn.ELU(), nn.Linear(32, encoding_size))
        self.prediction_policy_network = nn.Linear(encoding_size, action_space_size)
        self.prediction_value_network = nn.Linear(encoding_size, 2 * support_size + 1)

    def initial_inference(self, observation):
        encoded_state = self.representation_network(observation.view(observation.shape[0], -1))
        policy_logits = self.prediction_policy_network(encoded_state)
        value = self.prediction_value_network(encoded_state)
        return value, policy_logits, encoded_state

class MCTS:
    def run(self, model, observation):
        observation = torch.tensor(observation).float().unsqueeze(0).to(next(model.parameters()).device)
        root_predicted_value, policy_logits, hidden_state = model.initial_inference(observation)
        root_predicted_value = support_to_scalar(root_predicted_value, model.support_size)
        return root_predicted_value, torch.softmax(policy_logits, dim=1)

model = MuZeroFullyConnectedNetwork(observation_size=3 * 3 * 3, action_space_size=9)
model.to("cuda:0")
model.eval()
observation = np.zeros((3, 3, 3), dtype=np.float32)      # tictactoe planes
'''
CELL = '''
with torch.no_grad():
    root_value, priors = MCTS().run(model, observation)
print(root_value.device, priors.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
