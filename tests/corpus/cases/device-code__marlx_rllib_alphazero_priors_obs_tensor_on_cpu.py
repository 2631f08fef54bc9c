"""RLlib AlphaZero (torch) with a GPU: `compute_priors_and_value` turns the observation into a CPU tensor for the cuda model.

Source: https://github.com/ray-project/ray/issues/14970
"AlphaZero torch model doesn't support cuda, only cpu": running rllib/contrib/alpha_zero's
train_cartpole.py with a CUDA build of torch fails inside the MCTS with "Tensor for argument #2 'mat1'
is on CPU, but expected it to be on GPU". The policy puts the model on the GPU, but the model's
`compute_priors_and_value(obs)`, called by the tree search for every leaf, builds its input with
`convert_to_tensor = lambda arr: torch.from_numpy(np.asarray(arr))` and no device.
Stand-ins: the ActorCriticModel with a dense torso, the preprocessor (float32 flatten) and a
one-node MCTS expansion; priors and value are kept as tensors (the library calls `.cpu().numpy()`).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

def convert_to_tensor(arr):
    return torch.from_numpy(np.asarray(arr))

class FlattenPreprocessor:
    def transform(self, obs):
        return np.asarray(obs["obs"], dtype=np.float32).ravel()

class DenseModel(nn.Module):
    def __init__(self, obs_dim, num_outputs):
        super().__init__()
        self.preprocessor = FlattenPreprocessor()
        self.shared_layers = nn.Sequential(nn.Linear(obs_dim, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU())
        self.actor_layers = nn.Linear(128, num_outputs)
        self.critic_layers = nn.Linear(128, 1)
        self._value_out = None

    def forward(self, input_dict):
        x = self.shared_layers(input_dict["obs"])
        self._value_out = self.critic_layers(x)
        return self.actor_layers(x)

    def value_function(self):
        return self._value_out

    def compute_priors_and_value(self, obs):
        obs = convert_to_tensor([self.preprocessor.transform(obs)])
        with torch.no_grad():
            logits = self.forward({"obs": obs})
            value = self.value_function()
            logits, value = torch.squeeze(logits), torch.squeeze(value)
            priors = nn.Softmax(dim=-1)(logits)
            return priors, value

class Node:
    def __init__(self, obs, mcts):
        self.obs, self.mcts = obs, mcts
        self.child_priors = None

    def expand(self):
        self.child_priors, value = self.mcts.model.compute_priors_and_value(self.obs)
        return value

class MCTS:
    def __init__(self, model, mcts_param):
        self.model = model
        self.num_sims = mcts_param["num_simulations"]

    def compute_action(self, node):
        return node.expand()

model = DenseModel(obs_dim=4, num_outputs=2)
model.to("cuda:0")                      # the torch policy with num_gpus=1
mcts = MCTS(model, {"num_simulations": 30})
obs = {"obs": np.random.randn(4), "action_mask": np.ones(2, dtype=np.float32)}
root = Node(obs, mcts)
'''
CELL = '''
value = mcts.compute_action(root)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("obs = convert_to_tensor([self.preprocessor.transform(obs)])",
                  "obs = convert_to_tensor([self.preprocessor.transform(obs)]).to(next(self.parameters()).device)")
CLEAN = False
