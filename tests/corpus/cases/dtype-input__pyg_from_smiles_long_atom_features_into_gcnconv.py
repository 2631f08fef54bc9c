"""PyG `from_smiles`: a molecule's node features are int64 categorical codes, fed straight into `GCNConv`'s float linear layer.

Source: https://github.com/pyg-team/pytorch_geometric/pull/9341
"Convert molecular features to floating-point values": the author's example
`data = from_smiles('COc1cccc(c2cccc(F)c2C(=O)[O-])c1')` and a two-layer `GCNConv(9, 128)` model
"will throw an error 'RuntimeError: Found dtype Long but expected Float'" (with `# data.x =
data.x.float()` as the workaround in the snippet). The maintainer: the features are categorical and
meant for an embedding, "this is expected". Stand-in: `from_smiles` reduced to the 9 integer atom
features of a hand-written small molecule, `GCNConv` as symmetric-normalized propagation after its
linear layer.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn.functional as F
from types import SimpleNamespace

def from_smiles(smiles):
    # atomic_num, chirality, degree, formal_charge, num_hs, num_radical_electrons, hybridization, is_aromatic, is_in_ring
    x = torch.tensor([[8, 0, 2, 0, 0, 0, 4, 0, 0], [6, 0, 1, 0, 3, 0, 4, 0, 0], [6, 0, 3, 0, 0, 0, 3, 1, 1],
                      [6, 0, 2, 0, 1, 0, 3, 1, 1], [6, 0, 2, 0, 1, 0, 3, 1, 1], [9, 0, 1, 0, 0, 0, 4, 0, 0]], dtype=torch.long)
    edge_index = torch.tensor([[0, 1, 0, 2, 2, 3, 3, 4, 4, 5], [1, 0, 2, 0, 3, 2, 4, 3, 5, 4]], dtype=torch.long)
    edge_attr = torch.zeros(edge_index.shape[1], 3, dtype=torch.long)
    return SimpleNamespace(x=x, edge_index=edge_index, edge_attr=edge_attr, smiles=smiles)

class GCNConv(torch.nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin = torch.nn.Linear(in_channels, out_channels, bias=False)
        self.bias = torch.nn.Parameter(torch.zeros(out_channels))
    def forward(self, x, edge_index):
        x = self.lin(x)
        n = x.shape[0]
        adj = torch.zeros(n, n, dtype=x.dtype)
        adj[edge_index[1], edge_index[0]] = 1.0
        adj = adj + torch.eye(n, dtype=x.dtype)
        deg_inv_sqrt = adj.sum(1).pow(-0.5)
        return deg_inv_sqrt[:, None] * adj * deg_inv_sqrt[None, :] @ x + self.bias

smiles = 'COc1cccc(c2cccc(F)c2C(=O)[O-])c1'
data = from_smiles(smiles)

class GCN(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = GCNConv(9, 128)
        self.conv2 = GCNConv(128, 2)
    def forward(self, data):
        x, edge_index = data.x, data.edge_index
        x = self.conv1(x, edge_index)
        x = self.conv2(F.relu(x), edge_index)
        return F.log_softmax(x, dim=1)

model = GCN()
'''
CELL = '''
out = model(data)
'''
EXPECT_ERROR = ("Found dtype Long but expected Float", "mat1 and mat2 must have the same dtype",
                "expected scalar type Float but found Long", "expected m1 and m2 to have the same dtype")
CULPRITS = ["data.x"]
FIX = "namespace"
REFERENCE_FIX = '''
data.x = data.x.float()
'''
REFERENCE_EDIT = None
CLEAN = False
