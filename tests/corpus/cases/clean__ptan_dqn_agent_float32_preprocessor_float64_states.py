"""Look-alike: ptan's DQNAgent with `float32_preprocessor` takes Gym's float64 observations.

Source: https://github.com/Shmuma/ptan/pull/28
A PR cast model inputs to float to fix "Expected object of type torch.FloatTensor but found type
torch.DoubleTensor for argument #4 'mat1'"; the maintainer declined: some Gym environments return
double-valued observations, and that "is fully supported by ptan with `float32_preprocessor` need to
be passed to the agent" (as the book's 01_cartpole_dqn.py does). The float64 observations sit in
the namespace next to a float32 net, but the agent converts them before the forward pass.
Agent/selector reduced from ptan; the environment's observations are a float64 numpy list.
Run on the CPU (a dtype look-alike).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

def default_states_preprocessor(states):
    if len(states) == 1:
        np_states = np.expand_dims(states[0], 0)
    else:
        np_states = np.array([np.array(s, copy=False) for s in states], copy=False)
    return torch.tensor(np_states)

def float32_preprocessor(states):
    np_states = np.array(states, dtype=np.float32)
    return torch.tensor(np_states)

class ArgmaxActionSelector:
    def __call__(self, scores):
        return np.argmax(scores, axis=1)

class DQNAgent:
    def __init__(self, dqn_model, action_selector, device="cpu", preprocessor=default_states_preprocessor):
        self.dqn_model = dqn_model
        self.action_selector = action_selector
        self.preprocessor = preprocessor
        self.device = device

    def __call__(self, states, agent_states=None):
        if agent_states is None:
            agent_states = [None] * len(states)
        if self.preprocessor is not None:
            states = self.preprocessor(states)
            if torch.is_tensor(states):
                states = states.to(self.device)
        q_v = self.dqn_model(states)
        q = q_v.data.cpu().numpy()
        actions = self.action_selector(q)
        return actions, agent_states

net = nn.Sequential(nn.Linear(4, 128), nn.ReLU(), nn.Linear(128, 2))
selector = ArgmaxActionSelector()
agent = DQNAgent(net, selector, preprocessor=float32_preprocessor)
rng = np.random.default_rng(0)
states = [rng.standard_normal(4) for _ in range(8)]          # CartPole observations, float64
'''
CELL = '''
actions, _ = agent(states)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
