"""Look-alike: e3nn `CartesianTensor.from_cartesian(data)` builds its change of basis on the CPU, then moves it to `data`'s device and dtype before the matmul.

Source: https://github.com/e3nn/e3nn/blob/main/e3nn/io/_cartesian_tensor.py
Since PR #327, `reduced_tensor_products(data)` constructs `o3.ReducedTensorProducts` (a CPU, default-dtype
module) and then does `rtp = rtp.to(device=data.device, dtype=data.dtype)`; `from_cartesian` and
`to_cartesian` contract CUDA float64 data with `Q` only after that move. A CPU-built basis that is
fine. Stand-in: `ReducedTensorProducts` reduced to the `change_of_basis` buffer of "ij=ji".
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
from typing import Optional
import torch

class ReducedTensorProducts(torch.nn.Module):
    """e3nn.o3.ReducedTensorProducts("ij=ji", i="1o", j="1o"), reduced to its change of basis."""
    def __init__(self, formula, **irreps):
        super().__init__()
        Q = torch.zeros(6, 3, 3)
        Q[0] = torch.eye(3) / math.sqrt(3)
        for k, (a, b) in enumerate([(0, 1), (1, 2), (0, 2)]):
            Q[1 + k, a, b] = Q[1 + k, b, a] = 1 / math.sqrt(2)
        Q[4] = torch.diag(torch.tensor([1.0, -1.0, 0.0])) / math.sqrt(2)
        Q[5] = torch.diag(torch.tensor([1.0, 1.0, -2.0])) / math.sqrt(6)
        self.register_buffer("change_of_basis", Q)

class CartesianTensor:
    """e3nn.io.CartesianTensor (methods as in e3nn 0.5, Irreps base dropped)."""
    def __init__(self, formula):
        self.formula = formula
        self.indices = formula.split("=")[0].replace("-", "")

    def from_cartesian(self, data, rtp=None):
        if rtp is None:
            rtp = self.reduced_tensor_products(data)
        Q = rtp.change_of_basis.flatten(-len(self.indices))
        return data.flatten(-len(self.indices)) @ Q.T

    def to_cartesian(self, data, rtp=None):
        if rtp is None:
            rtp = self.reduced_tensor_products(data)
        Q = rtp.change_of_basis
        cartesian_tensor = data @ Q.flatten(-len(self.indices))
        shape = list(data.shape[:-1]) + list(Q.shape[1:])
        return cartesian_tensor.view(shape)

    def reduced_tensor_products(self, data: Optional[torch.Tensor] = None) -> ReducedTensorProducts:
        rtp = ReducedTensorProducts(self.formula, **{i: "1o" for i in self.indices})
        if data is not None:
            rtp = rtp.to(device=data.device, dtype=data.dtype)
        return rtp

device = torch.device("cuda:0")
ct = CartesianTensor("ij=ji")
stress = torch.randn(8, 3, 3, device=device, dtype=torch.float64)
stress = 0.5 * (stress + stress.transpose(-1, -2))
'''
CELL = '''
stress_irreps = ct.from_cartesian(stress)
stress_back = ct.to_cartesian(stress_irreps)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
