"""PyG Explainer with PGExplainer: the explainer algorithm's MLP stays on the CPU while model and data are on CUDA.

Source: https://github.com/pyg-team/pytorch_geometric/issues/6620
"PGExplainer error - Expected all tensors to be on the same device, but found at least two devices,
cpu and cuda:0! (when checking argument for argument mat2 in method wrapper_mm)": the user moved the
GCN and every input with `.to(device)`, then trained the explainer. PGExplainer is a Module with
its own edge-scoring MLP, built inside `Explainer(...)`'s algorithm argument and never moved.
Maintainer: "You need to move PGExplainer to the device as well: algorithm=PGExplainer(epochs=10,
lr=0.003).to(device)". Stand-in: a dense-adjacency GCN, the Explainer wrapper and PGExplainer's
`train` step reduced to embedding -> edge MLP -> masked prediction loss (forward only here).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class GCN(nn.Module):
    def __init__(self, input_dim, hidden):
        super().__init__()
        self.lin1 = nn.Linear(input_dim, hidden)
        self.lin2 = nn.Linear(hidden, hidden)
        self.lin = nn.Linear(hidden, 3)

    def embed(self, x, adj):
        h = F.relu(adj @ self.lin1(x))
        return F.relu(adj @ self.lin2(h))

    def forward(self, x, adj):
        return self.lin(self.embed(x, adj).mean(dim=0, keepdim=True))

class PGExplainer(nn.Module):
    def __init__(self, epochs, lr=0.003, hidden=16):
        super().__init__()
        self.epochs, self.lr = epochs, lr
        self.mlp = nn.Sequential(nn.Linear(2 * hidden, 64), nn.ReLU(), nn.Linear(64, 1))

    def train_step(self, model, x, adj, src, dst, target):
        z = model.embed(x, adj)
        inputs = torch.cat([z.index_select(0, src), z.index_select(0, dst)], dim=-1)
        edge_mask = torch.sigmoid(self.mlp(inputs)).view(-1)
        masked_adj = adj * edge_mask.mean()
        return F.cross_entropy(model(x, masked_adj), target)

class Explainer:
    def __init__(self, model, algorithm, explanation_type="phenomenon", edge_mask_type="object"):
        self.model, self.algorithm = model, algorithm
        self.explanation_type, self.edge_mask_type = explanation_type, edge_mask_type

device = torch.device("cuda:0")
model = GCN(input_dim=5, hidden=16).to(device)
explainer = Explainer(model=model, algorithm=PGExplainer(epochs=30, lr=0.003))
x = torch.randn(6, 5).to(device)
adj = (torch.rand(6, 6) > 0.5).float().to(device)
src = torch.tensor([0, 1, 2, 3]).to(device)
dst = torch.tensor([1, 2, 3, 4]).to(device)
target = torch.tensor([2]).to(device)
'''
CELL = '''
with torch.no_grad():
    loss = explainer.algorithm.train_step(model, x, adj, src, dst, target)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["explainer.algorithm"]
FIX = "namespace"
REFERENCE_FIX = '''
explainer.algorithm.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
