"""torch_scatter `scatter_min(indices, data.batch)`: `indices` made with `torch.arange` on the CPU while the batch vector is on the GPU.

Source: https://github.com/rusty1s/pytorch_scatter/issues/75
"I've accidentally done the following: `indices = torch.arange(data.batch.shape[0], dtype=torch.int64)`
/ `_, roots = scatter_min(indices, data.batch)` where `indices` is a cpu tensor and `data` resides on
the gpu." Back then the extension segfaulted; the maintainer added the device checks ("Should be
fixed in master"), so the op now stops with torch_scatter's assert: the kernel is chosen from `src`
(CPU here) and then "index must be CPU tensor". The fix is to make `indices` on the batch's device.
Stand-ins: `torch_scatter.scatter_min` with its C++ device dispatch and CHECK_CPU/CHECK_CUDA
asserts (min and argmin computed with `scatter_reduce`); a PyG `Batch` reduced to `x`/`batch`.
`dim_size=data.num_graphs` is passed so the simulated GPU never needs `index.max().item()`.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch

def _scatter_min_op(src, index, dim_size):
    """torch.ops.torch_scatter.scatter_min: kernel chosen from src's device."""
    if src.device.type == "cuda":
        if index.device.type != "cuda":
            raise RuntimeError('index.device().is_cuda() INTERNAL ASSERT FAILED at '
                               '"csrc/cuda/scatter_cuda.cu":63, please report a bug to PyTorch. '
                               'index must be CUDA tensor')
    elif index.device.type != "cpu":
        raise RuntimeError('index.device().is_cpu() INTERNAL ASSERT FAILED at '
                           '"csrc/cpu/scatter_cpu.cpp":17, please report a bug to PyTorch. '
                           'index must be CPU tensor')
    n = src.size(0)
    big = torch.iinfo(src.dtype).max if not src.is_floating_point() else float("inf")
    out = torch.full((dim_size,), big, dtype=src.dtype, device=src.device)
    out = out.scatter_reduce(0, index, src, reduce="amin")
    pos = torch.arange(n, device=src.device)
    cand = torch.where(src == out.gather(0, index), pos, torch.full_like(pos, n))
    arg = torch.full((dim_size,), n, dtype=torch.long, device=src.device)
    arg = arg.scatter_reduce(0, index, cand, reduce="amin")
    return out, arg

def scatter_min(src, index, dim=0, out=None, dim_size=None):
    """Stand-in for torch_scatter.scatter_min (1-D src, dim=0)."""
    if dim_size is None:
        dim_size = int(index.max()) + 1
    return _scatter_min_op(src, index, dim_size)

class Batch:
    """Stand-in for a torch_geometric Batch of graphs (only what the cell reads)."""
    def __init__(self, x, batch, num_graphs):
        self.x, self.batch, self.num_graphs = x, batch, num_graphs

    def to(self, device):
        return Batch(self.x.to(device), self.batch.to(device), self.num_graphs)

device = torch.device("cuda:0")
sizes = [5, 7, 4, 6]                                   # nodes per graph (tree roots wanted)
batch_vec = torch.cat([torch.full((s,), i, dtype=torch.long) for i, s in enumerate(sizes)])
data = Batch(torch.randn(batch_vec.numel(), 8), batch_vec, len(sizes)).to(device)
indices = torch.arange(data.batch.shape[0], dtype=torch.int64)
'''
CELL = '''
_, roots = scatter_min(indices, data.batch, dim_size=data.num_graphs)
root_x = data.x.index_select(0, roots)
'''
EXPECT_ERROR = "index must be CPU tensor"
CULPRITS = ["indices"]
FIX = "namespace"
REFERENCE_FIX = '''
indices = indices.to(data.batch.device)
'''
REFERENCE_EDIT = None
CLEAN = False
