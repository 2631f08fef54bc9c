"""CP2K PAO-ML equivariant model (NequIP-based) on CUDA-enabled PyTorch: the output matrix is allocated on the CPU.

Source: https://github.com/cp2k/cp2k/issues/5389
"PAO-ML does not work with CUDA-enabled pytorch": the traced model (a NequIP `GraphModuleMixin` pipeline
from `tools/pao-ml/pao/model.py`) fails in the module that assembles the `h_aux_matrix`: the
blocks computed from the cuda node features are added (`torch.add_`) into slices of a matrix that the
module allocates with a plain `torch.zeros(...)`, i.e. on the CPU. Allocating it on the features'
device fixes it. Stand-in: the linear head producing `h_aux_vec` and the block-assembly module.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class AuxMatrix(nn.Module):
    def __init__(self, ls=(0, 1)):
        super().__init__()
        self.ls = ls
        self.size = sum(2 * l + 1 for l in ls)

    def forward(self, h_aux_vec):
        n = h_aux_vec.shape[0]
        matrix = torch.zeros(n, self.size, self.size, dtype=h_aux_vec.dtype)
        c = 0
        for lj in self.ls:
            b = 0
            for lk in self.ls:
                dj, dk = 2 * lj + 1, 2 * lk + 1
                block = h_aux_vec[:, c:c + dj * dk].reshape(n, dj, dk)
                if lj == lk:
                    matrix[:, b:b + dj, b:b + dk].add_(block)
                b += dk
            c += dj * dj
        return matrix

class PaoModel(nn.Module):
    def __init__(self, n_features=16):
        super().__init__()
        self.linear = nn.Linear(n_features, 10)
        self.matrix = AuxMatrix()

    def forward(self, data):
        h_aux_vec = self.linear(data["node_features"])
        return self.matrix(h_aux_vec)

model = PaoModel().to("cuda:0")
data = {"node_features": torch.randn(3, 16).to("cuda:0")}
'''
CELL = '''
with torch.no_grad():
    h_aux_matrix = model(data)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["matrix"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.zeros(n, self.size, self.size, dtype=h_aux_vec.dtype)",
                  "torch.zeros(n, self.size, self.size, dtype=h_aux_vec.dtype, device=h_aux_vec.device)")
CLEAN = False
