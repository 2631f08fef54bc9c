"""Look-alike: a graph kept with an int32 `edge_index` (to save memory) used for indexing, int64 `edge_type` for `one_hot`.

Source: https://github.com/pytorch/pytorch/issues/83702
"We should be able to index using `torch.int32` using the bracket notation ... When dealing with
large sets of indices (e.g. graph edge lists), this means we have to use more memory." PyTorch now
accepts int32 index tensors for `[]` indexing, `index_select` and `index_add_`; `F.one_hot` still
wants int64, so the relation ids are kept as int64. Mixed index dtypes on purpose, every op
accepts its own: nothing to report. Stand-in: R-GCN's edge normalization (as in the RGCN
repository) with an int32 edge list.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F

def scatter_add(src, index, dim=0, dim_size=None):
    out = torch.zeros((dim_size,) + tuple(src.shape[1:]), dtype=src.dtype)
    return out.index_add_(dim, index, src)

def edge_normalization(edge_type, edge_index, num_entity, num_relation):
    one_hot = F.one_hot(edge_type, num_classes=2 * num_relation).to(torch.float)
    deg = scatter_add(one_hot, edge_index[0], dim=0, dim_size=num_entity)
    index = edge_type + torch.arange(len(edge_index[0])) * (2 * num_relation)
    edge_norm = 1 / deg[edge_index[0]].view(-1)[index]
    return edge_norm

num_nodes, num_rels, num_edges = 50, 6, 200
rng = np.random.default_rng(0)
src, dst = rng.integers(0, num_nodes, num_edges), rng.integers(0, num_nodes, num_edges)
edge_index = torch.from_numpy(np.stack((np.concatenate((src, dst)), np.concatenate((dst, src))))).to(torch.int32)
rel = torch.from_numpy(rng.integers(0, num_rels, num_edges)).long()
edge_type = torch.cat((rel, rel + num_rels))
'''
CELL = '''
edge_norm = edge_normalization(edge_type, edge_index, num_nodes, num_rels)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
