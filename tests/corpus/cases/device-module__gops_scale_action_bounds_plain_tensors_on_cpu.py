"""GOPS with enable_cuda: the action-scaling wrapper's bounds are plain CPU tensors, the policy's action is on the GPU.

Source: https://github.com/Intelligent-Driving-Laboratory/GOPS/issues/15
Training with `enable_cuda` failed in `gops/env/wrapper/scale_action.py` with "Expected all tensors
to be on the same device ... (when checking argument for argument min in method
wrapper_clamp_Tensor)": `ScaleActionModel.__init__` stores `self.min_action = torch.zeros_like(
model.action_lower_bound) + min_action` (and `max_action`) as plain attributes built from the CPU
model bounds, so moving the modules to cuda leaves them behind while `action(...)` gets a cuda action.
Stand-in: PythBaseModel/ScaleActionModel reduced, a small policy net.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

device = torch.device("cuda:0")

class PythBaseModel(nn.Module):
    """gops.env.env_ocp.pyth_base_model.PythBaseModel (reduced): bounds kept as plain tensors."""
    def __init__(self, obs_dim, action_lower_bound, action_upper_bound):
        super().__init__()
        self.obs_dim = obs_dim
        self.action_lower_bound = torch.tensor(action_lower_bound, dtype=torch.float32)
        self.action_upper_bound = torch.tensor(action_upper_bound, dtype=torch.float32)

class ScaleActionModel(nn.Module):
    """gops.env.wrapper.scale_action.ScaleActionModel (reduced)."""
    def __init__(self, model, min_action, max_action):
        super().__init__()
        self.model = model
        self.min_action = torch.zeros_like(model.action_lower_bound) + min_action
        self.max_action = torch.zeros_like(model.action_upper_bound) + max_action
        self.action_lower_bound = self.min_action
        self.action_upper_bound = self.max_action

    def action(self, action):
        action = torch.clip(action, self.min_action, self.max_action)
        low = self.model.action_lower_bound
        high = self.model.action_upper_bound
        action = low + (high - low) * ((action - self.min_action) / (self.max_action - self.min_action))
        return torch.clip(action, low, high)

policy = nn.Sequential(nn.Linear(6, 32), nn.Tanh(), nn.Linear(32, 2), nn.Tanh()).to(device)
env_model = ScaleActionModel(PythBaseModel(6, [-0.4, -3.0], [0.4, 3.0]), -1.0, 1.0).to(device)
obs = torch.randn(16, 6, device=device)
'''
CELL = '''
act = env_model.action(policy(obs))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["env_model.min_action", "env_model.max_action"]
FIX = "namespace"
REFERENCE_FIX = '''
env_model.min_action = env_model.min_action.to(device)
env_model.max_action = env_model.max_action.to(device)
env_model.model.action_lower_bound = env_model.model.action_lower_bound.to(device)
env_model.model.action_upper_bound = env_model.model.action_upper_bound.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
