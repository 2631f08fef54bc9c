"""ContextGS: `torch.arange` calls without a device inside the Gaussian model's entropy-coding path meet the anchors on the GPU.

Source: https://github.com/wyf0912/ContextGS/pull/11
"Corrected device placement of the tensors in the gaussian model": "In gaussian_model.py, some
torch.arange calls do not explicitly specify the device. When these indices are used with tensors
already on the GPU, a device mismatch exception is raised." The PR adds `device=to_code.device` to
the `torch.arange(...)` calls in `encode_process`, `conduct_decoding` and `multi_scale_generating`.
Stand-in: a GaussianModel with anchor features and the level-wise `encode_process` reduced to a
quantise-and-weight step in which the arange index takes part in arithmetic with `to_code`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class GaussianModel(nn.Module):
    def __init__(self, n_anchor=512, feat_dim=32, n_levels=3):
        super().__init__()
        self.n_levels = n_levels
        self._anchor = nn.Parameter(torch.randn(n_anchor, 3))
        self._anchor_feat = nn.Parameter(torch.randn(n_anchor, feat_dim))
        self.mlp_grid = nn.Sequential(nn.Linear(feat_dim, 2 * feat_dim))

    def encode_process(self, to_code, level):
        n = to_code.shape[0]
        step = 2 ** (self.n_levels - 1 - level)
        anchor_ids = torch.arange(0, n)
        keep = ((anchor_ids % step) == 0).float()[:, None]
        mean, scale = self.mlp_grid(to_code).chunk(2, dim=-1)
        q = torch.round((to_code - mean) / (scale.abs() + 0.1))
        return (q * keep).abs().sum()

    @torch.no_grad()
    def conduct_encoding(self):
        bits = 0.0
        for level in range(self.n_levels):
            bits = bits + self.encode_process(self._anchor_feat, level)
        return bits

gaussians = GaussianModel().to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    total_bits = gaussians.conduct_encoding()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["gaussians"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("anchor_ids = torch.arange(0, n)", "anchor_ids = torch.arange(0, n, device=to_code.device)")
CLEAN = False
