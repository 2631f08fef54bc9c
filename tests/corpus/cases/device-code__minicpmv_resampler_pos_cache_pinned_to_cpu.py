"""MiniCPM-V resampler built under a CUDA default device: its 2-D position cache is created with `device="cpu"`.

Source: https://github.com/vllm-project/vllm/pull/43844
`Resampler2_5.forward` adds the cached positional embedding to the GPU hidden states and raised
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!".
vLLM puts the model's parameters on the GPU when it builds and loads it, but
`_set_2d_pos_cache(max_size, device="cpu")` pins the non-persistent `pos_embed` buffer to the CPU,
and nothing moves it afterwards (`_adjust_pos_cache` only rebuilds it for images larger than
70x70). The PR's fix: move the slice to the input's device with its dtype in `forward`.
Stand-in: the resampler reduced to the key/value projection, the position cache and one
cross-attention; target sizes given as Python ints; the loader as a function that puts the
parameters (not the buffers) on the GPU.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def get_2d_sincos_pos_embed(embed_dim, image_size):
    grid_h, grid_w = image_size
    gh, gw = np.meshgrid(np.arange(grid_w, dtype=np.float32), np.arange(grid_h, dtype=np.float32))
    omega = 1.0 / 10000 ** (np.arange(embed_dim // 4, dtype=np.float32) / (embed_dim / 4.0))
    out_h = np.einsum("hw,d->hwd", gw, omega)
    out_w = np.einsum("hw,d->hwd", gh, omega)
    return np.concatenate([np.sin(out_h), np.cos(out_h), np.sin(out_w), np.cos(out_w)], axis=-1)

class Resampler2_5(nn.Module):
    def __init__(self, num_queries=16, embed_dim=32, kv_dim=48, max_size=(70, 70)):
        super().__init__()
        self.embed_dim = embed_dim
        self.query = nn.Parameter(torch.randn(num_queries, embed_dim))
        self.kv_proj = nn.Linear(kv_dim, embed_dim, bias=False)
        self.max_size = max_size
        self._set_2d_pos_cache(self.max_size)

    def _set_2d_pos_cache(self, max_size, device="cpu"):
        pos_embed_arr = get_2d_sincos_pos_embed(self.embed_dim, max_size)
        pos_embed = torch.from_numpy(pos_embed_arr).float().to(device)
        self.register_buffer("pos_embed", pos_embed, persistent=False)

    def forward(self, x, tgt_h, tgt_w):
        dtype = x.dtype
        x = self.kv_proj(x)
        pos_embed = self.pos_embed[:tgt_h, :tgt_w, :].reshape((tgt_h * tgt_w, -1)).to(dtype)
        k = x + pos_embed
        attn = torch.softmax(self.query @ k.transpose(1, 2) / self.embed_dim ** 0.5, dim=-1)
        return attn @ x

def load_weights(model, device):
    # stand-in for vLLM's loader: parameters are allocated on the GPU and filled from the
    # checkpoint; buffers made in __init__ are left where __init__ put them
    for m in model.modules():
        for k, p in m._parameters.items():
            if p is not None:
                m._parameters[k] = nn.Parameter(p.detach().to(device), p.requires_grad)
    return model

resampler = load_weights(Resampler2_5(), torch.device("cuda:0"))
tgt_h, tgt_w = 8, 6
vision_embedding = torch.randn(2, tgt_h * tgt_w, 48, device="cuda:0")
'''
CELL = '''
with torch.no_grad():
    image_features = resampler(vision_embedding, tgt_h, tgt_w)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["resampler.pos_embed"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    ".reshape((tgt_h * tgt_w, -1)).to(dtype)",
    ".reshape((tgt_h * tgt_w, -1)).to(device=x.device, dtype=dtype)",
)
CLEAN = False
