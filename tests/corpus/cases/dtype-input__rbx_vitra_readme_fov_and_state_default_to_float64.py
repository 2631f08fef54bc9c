"""VITRA readme example: `fov` from `np.deg2rad` and `state = np.zeros(...)` are float64 and reach the model's float32 layers.

Source: https://github.com/microsoft/VITRA/issues/39
"Readme minimum usage example crashes with dtype mismatch (float64 vs float32)": the zero-shot human action
prediction example raises `RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float`.
Cause given by the reporter: `fov = torch.tensor([[np.deg2rad(60.0), np.deg2rad(60.0)]])` is a float64
tensor (np.deg2rad returns float64) and `state = np.zeros((normalizer.state_mean.shape[0],))` defaults to
float64; both end up matmul'd against float32 weights. Fix: `dtype=torch.float32` on `fov` and
`dtype=np.float32` on `state`. Stand-ins: VITRA_Paligemma reduced to an image projection, a state encoder,
a FOV encoder and an action head; the normalizer, `pad_state_human` and `pad_action` keep their roles.
Dtype bug, so it runs on the CPU (the readme calls `.cuda()` on the model).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class ActionFeature:
    ALL_FEATURES = ("action", 192)

class StateFeature:
    ALL_FEATURES = ("state", 212)

class Normalizer:
    def __init__(self, stats):
        self.state_mean = np.asarray(stats["state_mean"], dtype=np.float32)
        self.state_std = np.asarray(stats["state_std"], dtype=np.float32)
        self.action_mean = np.asarray(stats["action_mean"], dtype=np.float32)
        self.action_std = np.asarray(stats["action_std"], dtype=np.float32)

    def normalize_state(self, state):
        return (state - self.state_mean) / (self.state_std + 1e-6)

    def unnormalize_action(self, action):
        return action * torch.from_numpy(self.action_std[: action.shape[-1]]) + torch.from_numpy(self.action_mean[: action.shape[-1]])

def load_normalizer(configs):
    rng = np.random.default_rng(0)
    return Normalizer({"state_mean": rng.normal(size=122), "state_std": np.ones(122),
                       "action_mean": rng.normal(size=102), "action_std": np.ones(102)})

def pad_state_human(state, state_mask, action_dim, state_dim, unified_state_dim):
    unified_state = torch.zeros(unified_state_dim, dtype=torch.from_numpy(state).dtype)
    unified_state[:state_dim] = torch.from_numpy(state)
    unified_state_mask = torch.zeros(unified_state_dim)
    half = state_dim // 2
    unified_state_mask[:half] = float(state_mask[0])
    unified_state_mask[half:state_dim] = float(state_mask[1])
    return unified_state, unified_state_mask

def pad_action(actions, action_mask, action_dim, unified_action_dim):
    mask = torch.zeros(action_mask.shape[0], unified_action_dim, dtype=torch.bool)
    mask[:, : action_dim // 2] = torch.from_numpy(action_mask[:, :1])
    mask[:, action_dim // 2: action_dim] = torch.from_numpy(action_mask[:, 1:])
    return None, mask

class VITRA_Paligemma(nn.Module):
    def __init__(self, hidden=64, chunk_size=16):
        super().__init__()
        self.chunk_size = chunk_size
        self.vision_proj = nn.Linear(3, hidden)                  # SigLIP + PaliGemma stand-in
        self.state_encoder = nn.Linear(StateFeature.ALL_FEATURES[1], hidden)
        self.fov_encoder = nn.Linear(2, hidden)
        self.action_head = nn.Linear(hidden, chunk_size * ActionFeature.ALL_FEATURES[1])

    @torch.no_grad()
    def predict_action(self, image, instruction, current_state, current_state_mask, action_mask_torch,
                       num_ddim_steps=10, cfg_scale=5.0, fov=None, sample_times=1):
        pixels = torch.from_numpy(image).float().div(255.0).flatten(0, 1).mean(0, keepdim=True)
        cond = self.vision_proj(pixels)
        cond = cond + self.state_encoder(current_state * current_state_mask)
        cond = cond + self.fov_encoder(fov)
        out = self.action_head(cond).view(-1, self.chunk_size, ActionFeature.ALL_FEATURES[1])
        return out * action_mask_torch

def load_model(configs):
    return VITRA_Paligemma()

configs = {"model_load_path": "checkpoints/vitra-vla-3b.pt", "statistics_path": "statistics/dataset_statistics.json"}
model = load_model(configs)
model.eval()
normalizer = load_normalizer(configs)

image = (np.random.default_rng(1).random((224, 224, 3)) * 255).astype(np.uint8)
fov = torch.tensor([[np.deg2rad(60.0), np.deg2rad(60.0)]])      # input your camera FOV here [fov_x, fov_y]
instruction = "Left hand: None. Right hand: Pick up the phone on the table."
state = np.zeros((normalizer.state_mean.shape[0],))             # Input your hand state here
state_mask = np.array([False, True], dtype=bool)
action_mask = np.tile(np.array([[False, True]], dtype=bool), (model.chunk_size, 1))
'''
CELL = '''
norm_state = normalizer.normalize_state(state)
unified_action_dim = ActionFeature.ALL_FEATURES[1]   # 192
unified_state_dim = StateFeature.ALL_FEATURES[1]     # 212
unified_state, unified_state_mask = pad_state_human(
    state=norm_state,
    state_mask=state_mask,
    action_dim=normalizer.action_mean.shape[0],
    state_dim=normalizer.state_mean.shape[0],
    unified_state_dim=unified_state_dim,
)
_, unified_action_mask = pad_action(
    actions=None,
    action_mask=action_mask,
    action_dim=normalizer.action_mean.shape[0],
    unified_action_dim=unified_action_dim,
)
norm_action = model.predict_action(
    image=image,
    instruction=instruction,
    current_state=unified_state.unsqueeze(0),
    current_state_mask=unified_state_mask.unsqueeze(0),
    action_mask_torch=unified_action_mask.unsqueeze(0),
    num_ddim_steps=10,
    cfg_scale=5.0,
    fov=fov,
    sample_times=1,
)
norm_action = norm_action[0, :, :102]
unnorm_action = normalizer.unnormalize_action(norm_action)
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["state", "fov"]
FIX = "namespace"
REFERENCE_FIX = '''
fov = fov.to(torch.float32)
state = state.astype(np.float32)
'''
REFERENCE_EDIT = None
CLEAN = False
