"""e3nn `o3.wigner_D`: the SO(3) generators come from `so3_generators(l)` on the CPU while the angles are on cuda.

Source: https://github.com/e3nn/e3nn/issues/423
"CUDA error when computing Wigner D matrix on gpu": `o3.D_from_angles(cuda_alpha, cuda_beta,
cuda_gamma)` (or `wigner_D(l, a, b, y)`) "does not work if I put all angles to cuda devices, it
suggest that some variables in the computation are located in CPU". `wigner_D` multiplies the angles
with `X = so3_generators(l)`, which builds the generators with default-device tensors; the reported
workaround sends that tensor to the inputs' device. Stand-in: `Irreps`/`Irrep.D_from_angles` and
`wigner_D` as in e3nn, `so3_generators` written out for l = 0, 1 (real basis) instead of the
complex change of basis.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch

def so3_generators(l):
    if l == 0:
        return torch.zeros(3, 1, 1)
    X = torch.tensor([[[0.0, 0.0, 0.0], [0.0, 0.0, -1.0], [0.0, 1.0, 0.0]],
                      [[0.0, 0.0, 1.0], [0.0, 0.0, 0.0], [-1.0, 0.0, 0.0]],
                      [[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]]])
    return X

def wigner_D(l, alpha, beta, gamma):
    alpha, beta, gamma = torch.broadcast_tensors(alpha, beta, gamma)
    alpha = alpha[..., None, None] % (2 * math.pi)
    beta = beta[..., None, None] % (2 * math.pi)
    gamma = gamma[..., None, None] % (2 * math.pi)
    X = so3_generators(l)
    return torch.matrix_exp(alpha * X[1]) @ torch.matrix_exp(beta * X[0]) @ torch.matrix_exp(gamma * X[1])

class Irrep(tuple):
    def __new__(cls, l, p):
        return super().__new__(cls, (l, p))
    @property
    def l(self):
        return self[0]
    @property
    def p(self):
        return self[1]
    def D_from_angles(self, alpha, beta, gamma, k=None):
        if k is None:
            k = torch.zeros_like(alpha)
        alpha, beta, gamma, k = torch.broadcast_tensors(alpha, beta, gamma, k)
        return wigner_D(self.l, alpha, beta, gamma) * self.p ** k[..., None, None]

class Irreps(tuple):
    def __new__(cls, irreps):
        out = []
        for mul_ir in irreps.split("+"):
            mul, ir = mul_ir.strip().split("x")
            out.append((int(mul), Irrep(int(ir[:-1]), 1 if ir[-1] == "e" else -1)))
        return super().__new__(cls, out)
    def D_from_angles(self, alpha, beta, gamma, k=None):
        return torch.block_diag(*[ir.D_from_angles(alpha, beta, gamma, k) for mul, ir in self for _ in range(mul)])

def rand_angles(*shape):
    alpha, gamma = 2 * math.pi * torch.rand(2, *shape)
    beta = torch.rand(shape).mul(2).sub(1).acos()
    return alpha, beta, gamma

device = torch.device("cuda:0")
irreps = Irreps("1x0e + 1x1o")
cuda_alpha, cuda_beta, cuda_gamma = (a.to(device) for a in rand_angles())
'''
CELL = '''
D = irreps.D_from_angles(cuda_alpha, cuda_beta, cuda_gamma)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["X"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    X = so3_generators(l)\n    return", "    X = so3_generators(l).to(alpha.device)\n    return")
CLEAN = False
