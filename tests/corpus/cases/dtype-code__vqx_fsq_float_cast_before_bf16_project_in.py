"""vector-quantize-pytorch 1.14.4 `FSQ` in a bfloat16 autoencoder: the input is cast to float before the bf16 `project_in`.

Source: https://github.com/lucidrains/vector-quantize-pytorch/issues/116
After the 1.14.4 fix for #114 (FSQ now casts non-float32 inputs with `z = z.float()`), the user's
bfloat16 network failed in FSQ's `project_in` with "mat1 and mat2 must have the same dtype, but got
Float and BFloat16" ("network is now BFloat16, input is cast as float"). The maintainer's fix
(commit 9b906d6, "address #116") moves the float cast after `project_in` and casts the codes back to
the original dtype before `project_out`.
Stand-in: FSQ as of 1.14.4 (levels/basis buffers, bound/round/scale, project_in/out, the
allowed_dtypes cast), num_codebooks=1, sequence input; the surrounding autoencoder is a minimal
encoder/decoder (the user's own model is not shown; names here are illustrative).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

def round_ste(z):
    zhat = z.round()
    return z + (zhat - z).detach()

class FSQ(nn.Module):
    """stand-in for vector_quantize_pytorch.FSQ (1.14.4)"""
    def __init__(self, levels, dim=None, allowed_dtypes=(torch.float32, torch.float64)):
        super().__init__()
        _levels = torch.tensor(levels, dtype=torch.int32)
        self.register_buffer("_levels", _levels, persistent=False)
        _basis = torch.cumprod(torch.tensor([1] + levels[:-1]), dim=0, dtype=torch.int32)
        self.register_buffer("_basis", _basis, persistent=False)
        codebook_dim = len(levels)
        self.dim = dim if dim is not None else codebook_dim
        has_projections = self.dim != codebook_dim
        self.project_in = nn.Linear(self.dim, codebook_dim) if has_projections else nn.Identity()
        self.project_out = nn.Linear(codebook_dim, self.dim) if has_projections else nn.Identity()
        self.allowed_dtypes = allowed_dtypes

    def bound(self, z, eps=1e-3):
        half_l = (self._levels - 1) * (1 + eps) / 2
        offset = torch.where(self._levels % 2 == 0, 0.5, 0.0)
        shift = (offset / half_l).atanh()
        return (z + shift).tanh() * half_l - offset

    def quantize(self, z):
        quantized = round_ste(self.bound(z))
        half_width = self._levels // 2
        return quantized / half_width

    def codes_to_indices(self, zhat):
        half_width = self._levels // 2
        zhat = (zhat * half_width) + half_width
        return (zhat * self._basis).sum(dim=-1).to(torch.int32)

    def forward(self, z):
        orig_dtype = z.dtype
        if z.dtype not in self.allowed_dtypes:
            z = z.float()
        z = self.project_in(z)
        codes = self.quantize(z)
        indices = self.codes_to_indices(codes)
        out = self.project_out(codes)
        if out.dtype != orig_dtype:
            out = out.type(orig_dtype)
        return out, indices

class AutoEncoder(nn.Module):
    def __init__(self, in_dim=150, hidden=64):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(in_dim, hidden), nn.GELU(), nn.Linear(hidden, hidden))
        self.quantizer = FSQ(levels=[8, 5, 5, 5], dim=hidden)
        self.decoder = nn.Sequential(nn.Linear(hidden, hidden), nn.GELU(), nn.Linear(hidden, in_dim))

    def forward(self, x):
        z = self.encoder(x)
        z_q, indices = self.quantizer(z)
        return self.decoder(z_q), indices

model = AutoEncoder().to(torch.bfloat16)     # bf16 training
x = torch.randn(4, 32, 150).to(torch.bfloat16)
'''
CELL = '''
x_hat, indices = model(x)
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["model.quantizer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        if z.dtype not in self.allowed_dtypes:
            z = z.float()
        z = self.project_in(z)
        codes = self.quantize(z)
        indices = self.codes_to_indices(codes)
        out = self.project_out(codes)""",
                  """        z = self.project_in(z)
        if z.dtype not in self.allowed_dtypes:
            z = z.float()
        codes = self.quantize(z)
        indices = self.codes_to_indices(codes)
        if codes.dtype != orig_dtype:
            codes = codes.type(orig_dtype)
        out = self.project_out(codes)""")
CLEAN = False
