"""Look-alike: LeRobot pi0 `embed_suffix` builds the timestep embedding in float64 on the GPU and casts it back; a bf16 state is cast for the fp32 `state_proj`.

Source: https://github.com/huggingface/lerobot/blob/7427f31801f944f5ec9ce53cda02862ce7d1638b/src/lerobot/policies/pi0/modeling_pi0.py
`embed_suffix` first does `if self.state_proj.weight.dtype == torch.float32: state = state.to(torch.float32)`,
then calls `create_sinusoidal_pos_embedding(timestep, ..., device=timestep.device)` (from
`policies/common/vla_utils.py`), which uses `get_safe_dtype(torch.float64, device.type)`: float64 on CUDA.
The float64 embedding is immediately `.type(dtype=timestep.dtype)`-ed back before it meets the float32
action embedding, and the masks are made with `device=`. Mixed dtypes on purpose, all resolved in the code.
Stand-ins: PI0Pytorch reduced to its suffix projections; the state arrives in bf16, as a bf16 data
pipeline would hand it over. `create_sinusoidal_pos_embedding` and `get_safe_dtype` are copied (reduced).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn.functional as F
from torch import nn, Tensor


def get_safe_dtype(dtype, device):
    if isinstance(device, torch.device):
        device = device.type
    if device == "mps" and dtype == torch.float64:
        return torch.float32
    return dtype


def create_sinusoidal_pos_embedding(time, dimension, min_period, max_period, device="cpu"):
    if dimension % 2 != 0:
        raise ValueError(f"dimension ({dimension}) must be divisible by 2")
    if time.ndim not in (1, 2):
        raise ValueError("The time tensor must have shape (batch_size,) or (batch_size, action_horizon).")
    dtype = get_safe_dtype(torch.float64, device.type)
    fraction = torch.linspace(0.0, 1.0, dimension // 2, dtype=dtype, device=device)
    period = min_period * (max_period / min_period) ** fraction
    scaling_factor = 1.0 / period * 2 * math.pi
    sin_input = time[..., None] * scaling_factor
    return torch.cat([torch.sin(sin_input), torch.cos(sin_input)], dim=-1)


class PI0Config:
    max_state_dim = 32
    max_action_dim = 32
    chunk_size = 50
    min_period = 4e-3
    max_period = 4.0


class PI0Pytorch(nn.Module):
    def __init__(self, config, width=64):
        super().__init__()
        self.config = config
        self.action_in_proj = nn.Linear(config.max_action_dim, width)
        self.action_out_proj = nn.Linear(width, config.max_action_dim)
        self.state_proj = nn.Linear(config.max_state_dim, width)
        self.action_time_mlp_in = nn.Linear(2 * width, width)
        self.action_time_mlp_out = nn.Linear(width, width)

    def embed_suffix(self, state, noisy_actions, timestep):
        embs, pad_masks, att_masks = [], [], []
        if self.state_proj.weight.dtype == torch.float32:
            state = state.to(torch.float32)
        state_emb = self.state_proj(state)
        embs.append(state_emb[:, None, :])
        bsize = state_emb.shape[0]
        device = state_emb.device
        state_mask = torch.ones(bsize, 1, dtype=torch.bool, device=device)
        pad_masks.append(state_mask)
        att_masks += [1]

        time_emb = create_sinusoidal_pos_embedding(
            timestep,
            self.action_in_proj.out_features,
            min_period=self.config.min_period,
            max_period=self.config.max_period,
            device=timestep.device,
        )
        time_emb = time_emb.type(dtype=timestep.dtype)

        action_emb = self.action_in_proj(noisy_actions)
        time_emb = time_emb[:, None, :].expand_as(action_emb)
        action_time_emb = torch.cat([action_emb, time_emb], dim=2)
        x = self.action_time_mlp_in(action_time_emb)
        x = F.silu(x)
        action_time_emb = self.action_time_mlp_out(x)

        embs.append(action_time_emb)
        bsize, action_time_dim = action_time_emb.shape[:2]
        action_time_mask = torch.ones(bsize, action_time_dim, dtype=torch.bool, device=timestep.device)
        pad_masks.append(action_time_mask)
        att_masks += [1] + ([0] * (self.config.chunk_size - 1))

        embs = torch.cat(embs, dim=1)
        pad_masks = torch.cat(pad_masks, dim=1)
        att_masks = torch.tensor(att_masks, dtype=embs.dtype, device=embs.device)
        att_masks = att_masks[None, :].expand(bsize, len(att_masks))
        return embs, pad_masks, att_masks, None


device = torch.device("cuda:0")
config = PI0Config()
model = PI0Pytorch(config).to(device)
state = torch.randn(2, config.max_state_dim, device=device, dtype=torch.bfloat16)
noise = torch.randn(2, config.chunk_size, config.max_action_dim, device=device)
time = torch.rand(2, device=device) * 0.999 + 0.001
'''
CELL = '''
suffix_embs, suffix_pad_masks, suffix_att_masks, adarms_cond = model.embed_suffix(state, noise, time)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
