"""R-GCN link prediction on Windows: `build_test_graph` one-hot encodes an int32 `edge_type` from NumPy.

Source: https://github.com/JinheonBaek/RGCN/issues/13
Running `main.py` on FB15k-237 (paths `D:/RGCN-master`) failed in `build_test_graph` ->
`edge_normalization`: `F.one_hot(edge_type, num_classes=2 * num_relation)` raised "RuntimeError:
one_hot is only applicable to index tensor." `read_triplets` returns `np.array(triplets)` of Python
ints, which NumPy makes int32 on Windows, and `build_test_graph` wraps the columns with
`torch.from_numpy`. The fix in the thread casts them to `torch.long`. Stand-in: the repository's
`build_test_graph`/`edge_normalization` with `torch_geometric.data.Data` and `torch_scatter.scatter_add`
reduced, and the triplets made int32 explicitly to get Windows' dtype on any platform.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F

class Data:
    def __init__(self, edge_index=None):
        self.edge_index = edge_index

def scatter_add(src, index, dim=0, dim_size=None):
    out = torch.zeros((dim_size,) + tuple(src.shape[1:]), dtype=src.dtype)
    return out.index_add_(dim, index, src)

def edge_normalization(edge_type, edge_index, num_entity, num_relation):
    one_hot = F.one_hot(edge_type, num_classes=2 * num_relation).to(torch.float)
    deg = scatter_add(one_hot, edge_index[0], dim=0, dim_size=num_entity)
    index = edge_type + torch.arange(len(edge_index[0])) * (2 * num_relation)
    edge_norm = 1 / deg[edge_index[0]].view(-1)[index]
    return edge_norm

def build_test_graph(num_nodes, num_rels, triplets):
    src, rel, dst = triplets.transpose()
    src = torch.from_numpy(src)
    rel = torch.from_numpy(rel)
    dst = torch.from_numpy(dst)
    src, dst = torch.cat((src, dst)), torch.cat((dst, src))
    rel = torch.cat((rel, rel + num_rels))
    edge_index = torch.stack((src, dst))
    edge_type = rel
    data = Data(edge_index=edge_index)
    data.entity = torch.from_numpy(np.arange(num_nodes))
    data.edge_type = edge_type
    data.edge_norm = edge_normalization(edge_type, edge_index, num_nodes, num_rels)
    return data

entity2id = {f"/m/{i:04d}": i for i in range(50)}
relation2id = {f"/r/{i}": i for i in range(6)}
rng = np.random.default_rng(0)
triplets = [(int(h), int(r), int(t)) for h, r, t in zip(rng.integers(0, 50, 200), rng.integers(0, 6, 200), rng.integers(0, 50, 200))]
train_triplets = np.array(triplets, dtype=np.int32)    # read_triplets' np.array(triplets): int32 on Windows
'''
CELL = '''
test_graph = build_test_graph(len(entity2id), len(relation2id), train_triplets)
'''
EXPECT_ERROR = "one_hot is only applicable to index tensor"
CULPRITS = ["train_triplets"]
FIX = "namespace"
REFERENCE_FIX = '''
train_triplets = train_triplets.astype(np.int64)
'''
REFERENCE_EDIT = None
CLEAN = False
