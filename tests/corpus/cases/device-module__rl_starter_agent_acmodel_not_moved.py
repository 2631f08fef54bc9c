"""rl-starter-files `Agent` for evaluation/visualisation: observations are preprocessed onto the GPU, the loaded model is not.

Source: https://github.com/lcswillems/rl-starter-files/pull/47
"fix for RuntimeError: Expected object of device type cuda but got device type cpu for argument #1
'self' in call to _th_mm" (issues 46 and 41): `utils.Agent` builds `self.acmodel`, loads the saved
state dict and keeps `self.device`; `get_actions` preprocesses observations with
`device=self.device`, but the actor-critic model itself was never moved there. The PR adds
`self.acmodel.to(self.device)`. Stand-in: the Agent, its observation preprocessor and a small ACModel.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
from torch import nn

class ACModel(nn.Module):
    def __init__(self, obs_dim=27, n_actions=7):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, n_actions))
        self.critic = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, 1))

    def forward(self, obs):
        x = obs.image.flatten(1)
        dist = torch.distributions.Categorical(logits=self.actor(x), validate_args=False)
        return dist, self.critic(x).squeeze(1)

class DictList(dict):
    __getattr__ = dict.__getitem__

def preprocess_obss(obss, device=None):
    images = np.array([obs["image"] for obs in obss], dtype=np.float32)
    return DictList({"image": torch.tensor(images).to(device)})

class Agent:
    def __init__(self, obs_space, action_space, model_state, device=None, argmax=False):
        self.preprocess_obss = preprocess_obss
        self.acmodel = ACModel()
        self.device = device
        self.argmax = argmax
        self.acmodel.load_state_dict(model_state)
        self.acmodel.eval()

    def get_actions(self, obss):
        preprocessed_obss = self.preprocess_obss(obss, device=self.device)
        with torch.no_grad():
            dist, _ = self.acmodel(preprocessed_obss)
        return dist.probs.argmax(dim=1) if self.argmax else dist.sample()

device = torch.device("cuda:0")
model_state = ACModel().state_dict()                       # utils.get_model_state(model_dir)
agent = Agent(None, None, model_state, device=device, argmax=True)
obss = [{"image": np.random.randint(0, 10, (3, 3, 3))} for _ in range(4)]
'''
CELL = '''
actions = agent.get_actions(obss)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["agent.acmodel"]
FIX = "namespace"
REFERENCE_FIX = '''
agent.acmodel.to(agent.device)
'''
REFERENCE_EDIT = None
CLEAN = False
