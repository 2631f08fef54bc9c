"""Message passing with scatter_add_ over an edge index loaded as floats from a text file.

Source: https://github.com/rusty1s/pytorch_scatter/issues/281
"Expected object of scalar type Long but got scalar type Float for argument #3 'index' in call to
_th_scatter_add_" inside torch_scatter.scatter (today: "scatter(): Expected dtype int32/int64 for
index"); the maintainer's answer: make sure `index` is torch.long. Stand-in: the scatter-sum
aggregation torch_scatter performs, with an edge list read by np.loadtxt (float64).
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import io
import numpy as np
import torch

def scatter_sum(src, index, dim_size):
    out = torch.zeros(dim_size, src.shape[1], dtype=src.dtype)
    return out.scatter_add_(0, index.view(-1, 1).expand_as(src), src)

edges = np.loadtxt(io.StringIO("0 1\\n1 2\\n2 0\\n2 3\\n3 1"))
edge_index = torch.from_numpy(edges).t()
x = torch.rand(4, 8)
'''
CELL = '''
messages = x.index_select(0, edge_index[0].long())
aggregated = scatter_sum(messages, edge_index[1], dim_size=4)
'''
EXPECT_ERROR = "scatter(): Expected dtype int32/int64 for index"
CULPRITS = ["edge_index"]
FIX = "namespace"
REFERENCE_FIX = '''
edge_index = edge_index.long()
'''
REFERENCE_EDIT = None
CLEAN = False
