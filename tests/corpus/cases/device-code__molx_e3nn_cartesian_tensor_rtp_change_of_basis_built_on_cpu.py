"""e3nn `CartesianTensor.from_cartesian(data)` builds its `ReducedTensorProducts` (change of basis `Q`) on the CPU, whatever device `data` is on.

Source: https://github.com/e3nn/e3nn/pull/327
"cartesian_tensor_device": after `CartesianTensor._rtp` was removed (PR #320), `from_cartesian` /
`to_cartesian` called `self.reduced_tensor_products()` with no argument when no `rtp=` was passed, so
the change-of-basis buffer was made on the CPU in the default dtype, and `data @ Q.T` fails for CUDA
(or float64) data such as a per-structure stress tensor. The merged fix (ChangeLog: "`CartesianTensor`
builds `ReducedTensorProduct` with correct device/dtype when called without one") passes `data` to
`reduced_tensor_products(data)`, which moves the module with `rtp.to(device=data.device, dtype=data.dtype)`.
Stand-ins: `o3.ReducedTensorProducts` reduced to a module holding the `change_of_basis` buffer of the
symmetric rank-2 formula "ij=ji" (0e + 2e); `CartesianTensor` keeps e3nn's method bodies.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
from typing import Optional
import torch

class ReducedTensorProducts(torch.nn.Module):
    """e3nn.o3.ReducedTensorProducts("ij=ji", i="1o", j="1o"), reduced to its change of basis."""
    def __init__(self, formula, **irreps):
        super().__init__()
        Q = torch.zeros(6, 3, 3)
        Q[0] = torch.eye(3) / math.sqrt(3)                       # 0e
        pairs = [(0, 1), (1, 2), (0, 2)]
        for k, (a, b) in enumerate(pairs):                       # 2e, off-diagonal part
            Q[1 + k, a, b] = Q[1 + k, b, a] = 1 / math.sqrt(2)
        Q[4] = torch.diag(torch.tensor([1.0, -1.0, 0.0])) / math.sqrt(2)
        Q[5] = torch.diag(torch.tensor([1.0, 1.0, -2.0])) / math.sqrt(6)
        self.register_buffer("change_of_basis", Q)

class CartesianTensor:
    """e3nn.io.CartesianTensor after PR #320, before PR #327 (methods kept, Irreps base dropped)."""
    def __init__(self, formula):
        self.formula = formula
        self.indices = formula.split("=")[0].replace("-", "")

    def from_cartesian(self, data, rtp=None):
        if rtp is None:
            rtp = self.reduced_tensor_products()

        Q = rtp.change_of_basis.flatten(-len(self.indices))
        return data.flatten(-len(self.indices)) @ Q.T

    def reduced_tensor_products(self) -> ReducedTensorProducts:
        return ReducedTensorProducts(self.formula, **{i: "1o" for i in self.indices})

device = torch.device("cuda:0")
ct = CartesianTensor("ij=ji")

# per-structure stress predicted by the model, symmetrised, on the GPU
stress = torch.randn(8, 3, 3, device=device)
stress = 0.5 * (stress + stress.transpose(-1, -2))
'''
CELL = '''
stress_irreps = ct.from_cartesian(stress)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["Q"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "            rtp = self.reduced_tensor_products()\n",
    "            rtp = self.reduced_tensor_products().to(device=data.device, dtype=data.dtype)\n",
)
CLEAN = False
