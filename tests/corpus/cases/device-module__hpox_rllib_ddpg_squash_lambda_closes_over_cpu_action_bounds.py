"""RLlib DDPG (torch) on a GPU: the action-squashing `_Lambda` module closes over CPU `low_action` / `action_range`.

Source: https://github.com/ray-project/ray/issues/16134
Running `rllib train -f tuned_examples/ddpg/pendulum-ddpg.yaml` with `num_gpus: 1` crashed with a
device mismatch in the DDPG torch model. The maintainer's diagnosis: "The Lambda_ module inside the
DDPG torch model references back to the original CPU-versions of `low_action` and `action_range`,
even if these are later moved to the GPU"; the fix declares the two tensors inside `_Lambda`
itself so that `Module.to()` moves them.
Stand-in: DDPGTorchModel's policy head with the squashing `_Lambda` defined in `__init__`.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
from torch import nn

class DDPGTorchModel(nn.Module):
    def __init__(self, obs_dim=3, action_low=(-2.0,), action_high=(2.0,), actor_hiddens=(64, 64)):
        super().__init__()
        low_action = torch.from_numpy(np.array(action_low, dtype=np.float32))
        action_range = torch.from_numpy(np.array(action_high, dtype=np.float32)) - low_action

        class _Lambda(nn.Module):
            def forward(self_, x):
                sigmoid_out = nn.Sigmoid()(2.0 * x)
                squashed = action_range * sigmoid_out + low_action
                return squashed

        self.policy_model = nn.Sequential(
            nn.Linear(obs_dim, actor_hiddens[0]), nn.ReLU(),
            nn.Linear(actor_hiddens[0], actor_hiddens[1]), nn.ReLU(),
            nn.Linear(actor_hiddens[1], len(action_low)),
            _Lambda(),
        )

    def get_policy_output(self, model_out):
        return self.policy_model(model_out)

model = DDPGTorchModel().to("cuda:0")            # num_gpus: 1
obs = torch.randn(32, 3, device="cuda:0")         # Pendulum observations, on the policy's device
'''
CELL = '''
actions = model.get_policy_output(obs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.policy_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        class _Lambda(nn.Module):
            def forward(self_, x):
                sigmoid_out = nn.Sigmoid()(2.0 * x)
                squashed = action_range * sigmoid_out + low_action
                return squashed
""", """        class _Lambda(nn.Module):
            def __init__(self_):
                super().__init__()
                self_.register_buffer("low_action", low_action)
                self_.register_buffer("action_range", action_range)

            def forward(self_, x):
                sigmoid_out = nn.Sigmoid()(2.0 * x)
                squashed = self_.action_range * sigmoid_out + self_.low_action
                return squashed
""")
CLEAN = False
