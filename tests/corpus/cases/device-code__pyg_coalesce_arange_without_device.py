"""torch_geometric `to_undirected` on a CUDA `edge_index`: `coalesce` builds its arange on the CPU.

Source: https://github.com/pyg-team/pytorch_geometric/issues/3390
"The usage of `to_undirected` or `coalesce` is impossible on cuda": inside `coalesce`,
`idx = torch.arange(0, nnz).sub_(mask.logical_not_().cumsum(dim=0))` creates the arange with no
device, and the in-place subtraction of the CUDA cumsum raised. The reporter proposed
`torch.arange(0, nnz, device=...)`. Stand-in: the two utilities reduced to the failing path.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def coalesce(edge_index, num_nodes):
    nnz = edge_index.size(1)
    row, col = edge_index.unbind(0)
    key, perm = (row * num_nodes + col).sort()
    edge_index = edge_index.index_select(1, perm)
    mask = torch.cat([torch.ones_like(key.narrow(0, 0, 1), dtype=torch.bool),
                      key.narrow(0, 1, nnz - 1) > key.narrow(0, 0, nnz - 1)])
    idx = torch.arange(0, nnz).sub_(mask.logical_not_().cumsum(dim=0))
    return edge_index, idx, mask

def to_undirected(edge_index, num_nodes):
    row, col = edge_index.unbind(0)
    row, col = torch.cat([row, col], dim=0), torch.cat([col, row], dim=0)
    return coalesce(torch.stack([row, col], dim=0), num_nodes)

device = torch.device("cuda:0")
num_nodes = 10
edge_index = torch.randint(0, num_nodes, (2, 30)).to(device)
'''
CELL = '''
undirected = to_undirected(edge_index, num_nodes)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["to_undirected"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("idx = torch.arange(0, nnz).sub_(",
                  "idx = torch.arange(0, nnz, device=edge_index.device).sub_(")
CLEAN = False
