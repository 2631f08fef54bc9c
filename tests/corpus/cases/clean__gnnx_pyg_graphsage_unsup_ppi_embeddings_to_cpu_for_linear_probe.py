"""Look-alike: PyG unsupervised GraphSAGE on PPI moves every batch to the GPU and brings the embeddings and labels back to the CPU for the classifier.

Source: https://github.com/pyg-team/pytorch_geometric/blob/master/examples/graph_sage_unsup_ppi.py
`encode(loader)` does `data = data.to(device)`, `xs.append(model(data.x, data.edge_index).cpu())`,
`ys.append(data.y.cpu())` and returns `torch.cat(xs)`, `torch.cat(ys)`; `test()` then fits a scikit-learn
`MultiOutputClassifier(SGDClassifier(...))` and computes micro-F1 on those CPU tensors. Stand-in: a
two-layer mean-aggregation SAGE encoder, PPI-shaped graphs (121 multi-label targets reduced to 8), and
a least-squares linear probe with micro-F1 in torch on the CPU in place of scikit-learn.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

class SAGEConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin_l = nn.Linear(in_channels, out_channels)
        self.lin_r = nn.Linear(in_channels, out_channels, bias=False)

    def forward(self, x, edge_index):
        src, dst = edge_index[0], edge_index[1]
        summed = torch.zeros_like(x).index_add_(0, dst, x.index_select(0, src))
        cnt = torch.zeros(x.size(0), device=x.device).index_add_(0, dst, torch.ones(dst.size(0), device=x.device))
        return self.lin_l(summed / cnt.clamp(min=1).unsqueeze(-1)) + self.lin_r(x)

class GraphSAGE(nn.Module):
    def __init__(self, in_channels, hidden_channels, num_layers=2):
        super().__init__()
        self.convs = nn.ModuleList([SAGEConv(in_channels if i == 0 else hidden_channels, hidden_channels)
                                    for i in range(num_layers)])

    def forward(self, x, edge_index):
        for i, conv in enumerate(self.convs):
            x = conv(x, edge_index)
            if i < len(self.convs) - 1:
                x = F.relu(x)
        return x

class Data:
    def __init__(self, x, edge_index, y):
        self.x, self.edge_index, self.y = x, edge_index, y

    def to(self, device):
        return Data(self.x.to(device), self.edge_index.to(device), self.y.to(device))

def ppi_graph(seed, n=30, f=12, labels=8):
    gen = torch.Generator().manual_seed(seed)
    return Data(torch.randn(n, f, generator=gen), torch.randint(0, n, (2, 4 * n), generator=gen),
                torch.randint(0, 2, (n, labels), generator=gen).float())

train_loader = [ppi_graph(s) for s in range(3)]
val_loader = [ppi_graph(s) for s in range(10, 12)]

class LinearProbe:
    """Stand-in for MultiOutputClassifier(SGDClassifier(loss='log_loss')) on CPU features."""
    def fit(self, x, y):
        x1 = torch.cat([x, torch.ones(x.size(0), 1)], 1)
        self.W = torch.linalg.pinv(x1) @ (2 * y - 1)
        return self

    def predict(self, x):
        x1 = torch.cat([x, torch.ones(x.size(0), 1)], 1)
        return (x1 @ self.W > 0).float()

def f1_score(y, pred):
    tp = (y * pred).sum()
    return 2 * tp / (2 * tp + ((1 - y) * pred).sum() + (y * (1 - pred)).sum())

device = torch.device('cuda:0')
model = GraphSAGE(12, 32, num_layers=2).to(device)

@torch.no_grad()
def encode(loader):
    model.eval()
    xs, ys = [], []
    for data in loader:
        data = data.to(device)
        xs.append(model(data.x, data.edge_index).cpu())
        ys.append(data.y.cpu())
    return torch.cat(xs, dim=0), torch.cat(ys, dim=0)
'''
CELL = '''
# Train classifier on training set:
x, y = encode(train_loader)
clf = LinearProbe().fit(x, y)
train_f1 = f1_score(y, clf.predict(x))
# Evaluate on validation set:
x, y = encode(val_loader)
val_f1 = f1_score(y, clf.predict(x))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
