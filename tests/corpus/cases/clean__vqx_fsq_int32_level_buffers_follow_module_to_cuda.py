"""Look-alike: vector-quantize-pytorch `FSQ` on the GPU keeps int32 `_levels`/`_basis` buffers and mixes them with float codes.

Source: https://github.com/lucidrains/vector-quantize-pytorch/blob/master/vector_quantize_pytorch/finite_scalar_quantization.py
FSQ registers its levels and mixed-radix basis as int32 buffers (`persistent = False`) and
`bound`/`quantize`/`codes_to_indices`/`indices_to_codes` combine them with float activations
(`torch.where(levels % 2 == 0, 0.5, 0.0)`, `zhat * half_width + half_width`, `(zhat *
basis).sum(-1).to(int32)`, `(indices // basis) % levels`). Non-persistent buffers still move with
`.to(device)`, and int-with-float arithmetic promotes, so the README round trip on the GPU is
right. Nothing to report.
Stand-in: FSQ (1.14.x) without projections, num_codebooks=1, sequence input.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def round_ste(z):
    zhat = z.round()
    return z + (zhat - z).detach()

class FSQ(nn.Module):
    """stand-in for vector_quantize_pytorch.FSQ"""
    def __init__(self, levels):
        super().__init__()
        _levels = torch.tensor(levels, dtype=torch.int32)
        self.register_buffer("_levels", _levels, persistent=False)
        _basis = torch.cumprod(torch.tensor([1] + levels[:-1]), dim=0, dtype=torch.int32)
        self.register_buffer("_basis", _basis, persistent=False)
        self.codebook_size = 1
        for l in levels:               # library: self._levels.prod().item()
            self.codebook_size *= l

    def bound(self, z, eps=1e-3):
        half_l = (self._levels - 1) * (1 + eps) / 2
        offset = torch.where(self._levels % 2 == 0, 0.5, 0.0)
        shift = (offset / half_l).atanh()
        return (z + shift).tanh() * half_l - offset

    def quantize(self, z):
        quantized = round_ste(self.bound(z))
        half_width = self._levels // 2
        return quantized / half_width

    def _scale_and_shift(self, zhat_normalized):
        half_width = self._levels // 2
        return (zhat_normalized * half_width) + half_width

    def _scale_and_shift_inverse(self, zhat):
        half_width = self._levels // 2
        return (zhat - half_width) / half_width

    def codes_to_indices(self, zhat):
        zhat = self._scale_and_shift(zhat)
        return (zhat * self._basis).sum(dim=-1).to(torch.int32)

    def indices_to_codes(self, indices):
        indices = indices.unsqueeze(-1)
        codes_non_centered = (indices // self._basis) % self._levels
        return self._scale_and_shift_inverse(codes_non_centered)

    def forward(self, z):
        codes = self.quantize(z)
        indices = self.codes_to_indices(codes)
        return codes, indices

levels = [8, 5, 5, 5]   # see 4.1 and A.4.1 in the paper
quantizer = FSQ(levels).to("cuda:0")
x = torch.randn(1, 1024, 4, device="cuda:0")
'''
CELL = '''
xhat, indices = quantizer(x)   # (1, 1024, 4), (1, 1024)
codes = quantizer.indices_to_codes(indices)
err = (codes - xhat).abs().max()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
