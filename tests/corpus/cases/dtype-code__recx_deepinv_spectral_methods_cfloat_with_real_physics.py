"""deepinv `spectral_methods` for phase retrieval casts `x` to `torch.cfloat` unconditionally; a real-valued physics then fails in einsum.

Source: https://github.com/deepinv/deepinv/pull/1216
"spectral_methods currently converts x and diag_T to torch.cfloat unconditionally. This will cause an
error if physics.dtype is not torch.cfloat, as we call torch.einsum in the forward pass of
RandomPhaseRetrieval to perform matrix multiplication, which requires both operands to be of the same
type" (also #517, real-valued random phase retrieval). The fix casts to `physics.dtype` (or expects a
correctly typed initial guess). Stand-in: a reduced RandomPhaseRetrieval with a real float32 sensing
matrix and the power-iteration spectral initializer.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch

class RandomPhaseRetrieval(torch.nn.Module):
    def __init__(self, m, img_size, dtype=torch.float):
        super().__init__()
        self.img_size = img_size
        self.dtype = dtype
        n = int(torch.tensor(img_size).prod())
        self.B = torch.randn(m, n, dtype=dtype) / n ** 0.5

    def B_op(self, x):
        return torch.einsum("mn,bn->bm", self.B, x.flatten(1))

    def B_adjoint(self, y):
        return torch.einsum("mn,bm->bn", self.B.conj(), y).reshape(-1, *self.img_size)

    def forward(self, x):
        return self.B_op(x).abs() ** 2

def spectral_methods(y, physics, x=None, n_iter=20):
    if x is None:
        x = torch.randn((y.shape[0],) + tuple(physics.img_size))
    x = x.to(torch.cfloat)
    diag_T = y / y.mean()
    diag_T = diag_T.to(torch.cfloat)
    for _ in range(n_iter):
        x = physics.B_adjoint(diag_T * physics.B_op(x))
        x = x / x.flatten(1).norm(dim=1).view(-1, 1, 1, 1)
    return x

img_size = (1, 8, 8)
physics = RandomPhaseRetrieval(m=256, img_size=img_size, dtype=torch.float)
x_true = torch.randn(1, *img_size)
y = physics(x_true)
'''
CELL = '''
x_init = spectral_methods(y, physics, n_iter=10)
'''
EXPECT_ERROR = ("expected scalar type", "same dtype", "should be the same")
CULPRITS = ["spectral_methods"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""    x = x.to(torch.cfloat)
    diag_T = y / y.mean()
    diag_T = diag_T.to(torch.cfloat)""", """    x = x.to(physics.dtype)
    diag_T = y / y.mean()
    diag_T = diag_T.to(physics.dtype)""")
CLEAN = False
