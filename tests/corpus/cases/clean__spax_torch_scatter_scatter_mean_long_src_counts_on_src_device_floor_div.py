"""torch_scatter `scatter_mean` on an integer tensor: the counts are built inside the helper on `src`'s device and dtype, and the division floors.

Source: https://github.com/rusty1s/pytorch_scatter/blob/master/torch_scatter/scatter.py
`scatter_mean` sums with `scatter_sum`, then makes `ones = torch.ones(index.size(), dtype=src.dtype,
device=src.device)`, counts per segment, clamps empty segments with `count[count < 1] = 1` and
divides in place with `rounding_mode = None if torch.is_floating_point(out) else 'floor'`. Here a
molecule batch on the GPU averages its int64 atomic numbers `z` (floor mean) and its float node
features `x` per graph. Look-alike: tensors created inside a library helper, an in-place division
of an int64 tensor; it runs. Stand-ins: `scatter_sum`/`scatter_mean`/`broadcast` as in the file
(TorchScript's mutable `size` written as a list) and a PyG-like `Batch`; `dim_size=data.num_graphs`
is passed as PyG's pooling does. SIM meta: "meta" plays the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
from typing import Optional
import torch

def broadcast(src: torch.Tensor, other: torch.Tensor, dim: int):
    if dim < 0:
        dim = other.dim() + dim
    if src.dim() == 1:
        for _ in range(0, dim):
            src = src.unsqueeze(0)
    for _ in range(src.dim(), other.dim()):
        src = src.unsqueeze(-1)
    src = src.expand(other.size())
    return src

def scatter_sum(src: torch.Tensor, index: torch.Tensor, dim: int = -1,
                out: Optional[torch.Tensor] = None,
                dim_size: Optional[int] = None) -> torch.Tensor:
    index = broadcast(index, src, dim)
    if out is None:
        size = list(src.size())
        if dim_size is not None:
            size[dim] = dim_size
        elif index.numel() == 0:
            size[dim] = 0
        else:
            size[dim] = int(index.max()) + 1
        out = torch.zeros(size, dtype=src.dtype, device=src.device)
        return out.scatter_add_(dim, index, src)
    else:
        return out.scatter_add_(dim, index, src)

def scatter_mean(src: torch.Tensor, index: torch.Tensor, dim: int = -1,
                 out: Optional[torch.Tensor] = None,
                 dim_size: Optional[int] = None) -> torch.Tensor:

    out = scatter_sum(src, index, dim, out, dim_size)
    dim_size = out.size(dim)

    index_dim = dim
    if index_dim < 0:
        index_dim = index_dim + src.dim()
    if index.dim() <= index_dim:
        index_dim = index.dim() - 1

    ones = torch.ones(index.size(), dtype=src.dtype, device=src.device)
    count = scatter_sum(ones, index, index_dim, None, dim_size)
    count[count < 1] = 1
    count = broadcast(count, out, dim)
    rounding_mode = None if torch.is_floating_point(out) else 'floor'
    out.div_(count, rounding_mode=rounding_mode)
    return out

class Batch:
    """Stand-in for a torch_geometric Batch of molecules."""
    def __init__(self, z, x, batch, num_graphs):
        self.z, self.x, self.batch, self.num_graphs = z, x, batch, num_graphs

    def to(self, device):
        return Batch(self.z.to(device), self.x.to(device), self.batch.to(device), self.num_graphs)

device = torch.device("meta")                          # torch.device("cuda")
sizes = [9, 12, 7, 15]
batch = torch.cat([torch.full((s,), i, dtype=torch.long) for i, s in enumerate(sizes)])
z = torch.randint(1, 10, (batch.numel(),))            # atomic numbers, int64
data = Batch(z, torch.randn(batch.numel(), 11), batch, len(sizes)).to(device)
'''
CELL = '''
mean_z = scatter_mean(data.z, data.batch, dim=0, dim_size=data.num_graphs)
mean_x = scatter_mean(data.x, data.batch, dim=0, dim_size=data.num_graphs)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
