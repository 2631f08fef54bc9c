"""PyG `HeteroLinear` without `segment_matmul` under autocast: `out[mask] = F.linear(...)` writes a half-precision result into a float32 buffer.

Source: https://github.com/pyg-team/pytorch_geometric/pull/7473
"This PR fixes an issue with the `HeteroLinear` module, which crashes in the forward pass if it is
used within a `torch.cuda.amp.autocast` environment": with `lin.use_segmm = 0` the per-type loop
runs `out[mask] = F.linear(x[mask], self.weight[i].T)` and fails with "RuntimeError: Index put
requires the source and destination dtypes match, got Float for the destination and Half for the
source." `out` is `x.new_empty(...)` (float32, like `x`) while autocast makes `F.linear` return
half: "The issue is caused by `F.linear` changing the dtype on the fly. An additional cast is
needed." Stand-in: `HeteroLinear` of that time (per-type weights `[num_types, in, out]`,
`use_segmm` switch; the segment-matmul branch kept as a plain loop over types). SIM cpu: CPU
autocast with bfloat16 plays CUDA autocast with float16.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import math
import torch
import torch.nn.functional as F
from torch import Tensor
from torch.nn import Parameter

class HeteroLinear(torch.nn.Module):
    """Stand-in for torch_geometric.nn.dense.linear.HeteroLinear (before PR #7473)."""
    def __init__(self, in_channels, out_channels, num_types, is_sorted=False, bias=True):
        super().__init__()
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.num_types = num_types
        self.is_sorted = is_sorted
        self.use_segmm = -1                      # -1: decide by heuristic, 0/1: forced
        self.weight = Parameter(torch.empty(num_types, in_channels, out_channels))
        self.bias = Parameter(torch.empty(num_types, out_channels)) if bias else None
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1.0 / math.sqrt(self.in_channels)
        torch.nn.init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            torch.nn.init.uniform_(self.bias, -bound, bound)

    def _segment_matmul(self, x, type_vec):      # pyg_lib.ops.segment_matmul path
        outs = [x[type_vec == i] @ self.weight[i] for i in range(self.num_types)]
        return torch.cat(outs, dim=0)

    def forward(self, x: Tensor, type_vec: Tensor) -> Tensor:
        use_segmm = self.use_segmm if self.use_segmm != -1 else int(x.size(0) > 1000)
        if use_segmm:
            if not self.is_sorted:
                type_vec, perm = type_vec.sort()
                x = x[perm]
            out = self._segment_matmul(x, type_vec)
            if not self.is_sorted:
                out = out[perm.argsort()]
        else:
            out = x.new_empty(x.size(0), self.out_channels)
            for i in range(self.num_types):
                mask = type_vec == i
                out[mask] = F.linear(x[mask], self.weight[i].T)
        if self.bias is not None:
            out += self.bias[type_vec]
        return out

x = torch.randn(3, 16)
type_vec = torch.tensor([0, 1, 2])
lin = HeteroLinear(16, 32, num_types=3)
lin.use_segmm = 0
'''
CELL = '''
with torch.autocast("cpu", dtype=torch.bfloat16):       # torch.cuda.amp.autocast()
    out_no_segmm = lin(x, type_vec)
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["lin"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("out[mask] = F.linear(x[mask], self.weight[i].T)",
                  "out[mask] = F.linear(x[mask], self.weight[i].T).to(out.dtype)")
CLEAN = False
