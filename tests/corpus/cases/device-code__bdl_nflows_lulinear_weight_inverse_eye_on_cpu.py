"""nflows `LULinear.weight_inverse()` after `lu.to('cuda:1')`: the identity for the triangular solves is made on the CPU.

Source: https://github.com/bayesiains/nflows/pull/38
"Fix LULinear.weight_inverse with CUDA": `lu = LULinear(4); lu.to('cuda:1'); lu.weight_inverse()`
failed with "Expected b and A to be on the same device, but found b on cpu and A on cuda:1" because
`weight_inverse` calls `identity = torch.eye(self.features, self.features)` without a device while
the L/U factors are built from the module's parameters on cuda:1. The merged fix creates the identity
on the device of the parameters (`device=self.lower_entries.device`). Stand-in: LULinear with its
lower/upper/diag parameters, `_create_lower_upper` (index_put with index tensors instead of numpy
fancy-index assignment, which the simulation cannot run) and `weight_inverse` as in nflows.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F
from torch.nn import init

class LULinear(nn.Module):
    """Stand-in for nflows.transforms.lu.LULinear (LU-parameterised linear flow layer)."""
    def __init__(self, features, using_cache=False, identity_init=True, eps=1e-3):
        super().__init__()
        self.features = features
        self.using_cache = using_cache
        self.eps = eps
        self.bias = nn.Parameter(torch.zeros(features))
        self.lower_indices = np.tril_indices(features, k=-1)
        self.upper_indices = np.triu_indices(features, k=1)
        self.diag_indices = np.diag_indices(features)
        n_triangular_entries = ((features - 1) * features) // 2
        self.lower_entries = nn.Parameter(torch.zeros(n_triangular_entries))
        self.upper_entries = nn.Parameter(torch.zeros(n_triangular_entries))
        self.unconstrained_upper_diag = nn.Parameter(torch.zeros(features))
        self._initialize(identity_init)

    def _initialize(self, identity_init):
        init.zeros_(self.bias)
        init.zeros_(self.lower_entries)
        init.zeros_(self.upper_entries)
        constant = np.log(np.exp(1 - self.eps) - 1)
        init.constant_(self.unconstrained_upper_diag, constant)

    def _index(self, idx):
        dev = self.lower_entries.device
        return (torch.as_tensor(idx[0], device=dev), torch.as_tensor(idx[1], device=dev))

    def _create_lower_upper(self):
        lower = self.lower_entries.new_zeros(self.features, self.features)
        lower = lower.index_put(self._index(self.lower_indices), self.lower_entries)
        lower = lower.index_put(self._index(self.diag_indices), lower.new_ones(self.features))
        upper = self.upper_entries.new_zeros(self.features, self.features)
        upper = upper.index_put(self._index(self.upper_indices), self.upper_entries)
        upper = upper.index_put(self._index(self.diag_indices), self.upper_diag)
        return lower, upper

    def forward(self, inputs, context=None):
        lower, upper = self._create_lower_upper()
        outputs = F.linear(F.linear(inputs, upper), lower, self.bias)
        logabsdet = self.logabsdet() * inputs.new_ones(outputs.shape[0])
        return outputs, logabsdet

    def weight_inverse(self):
        lower, upper = self._create_lower_upper()
        identity = torch.eye(self.features, self.features)
        lower_inverse = torch.linalg.solve_triangular(
            lower, identity, upper=False, unitriangular=True
        )
        weight_inverse = torch.linalg.solve_triangular(
            upper, lower_inverse, upper=True, unitriangular=False
        )
        return weight_inverse

    @property
    def upper_diag(self):
        return F.softplus(self.unconstrained_upper_diag) + self.eps

    def logabsdet(self):
        return torch.sum(torch.log(self.upper_diag))

lu = LULinear(4)
lu.to('cuda:1')
'''
CELL = '''
with torch.no_grad():
    w_inv = lu.weight_inverse()
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "to be on the same device")
CULPRITS = ["lu"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("identity = torch.eye(self.features, self.features)",
                  "identity = torch.eye(self.features, self.features, device=self.lower_entries.device)")
CLEAN = False
