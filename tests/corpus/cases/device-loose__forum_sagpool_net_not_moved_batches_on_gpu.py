"""SAGPool graph classification: every batch goes `.to(args.device)`, the `Net(args)` model does not.

Source: https://github.com/inyeoplee77/SAGPool/issues/3
Running main.py raised "RuntimeError: Expected object of backend CUDA but got backend CPU for
argument #2 'mat2'". The user first added `.cuda()` to the data, which didn't help; then "i got it!
just add '.to(args.device)' behind the 'Net(args)' at line 97", and the author updated the repo.
main.py moves each PyG batch with `data = data.to(args.device)` while the model was built on the
CPU. Stand-in: dense GCN layers (Linear + adjacency product) with SAG-style top-k scoring and
mean/max readout instead of torch_geometric; a batch is a small object with `x`, `adj`, `y`.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import argparse
import torch
import torch.nn as nn
import torch.nn.functional as F

class GCNConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.lin = nn.Linear(in_channels, out_channels)

    def forward(self, x, adj):
        return adj @ self.lin(x)

class SAGPool(nn.Module):
    def __init__(self, in_channels, ratio=0.5):
        super().__init__()
        self.score_layer = GCNConv(in_channels, 1)
        self.ratio = ratio

    def forward(self, x, adj):
        score = self.score_layer(x, adj).squeeze(-1)
        k = max(1, int(self.ratio * x.size(1)))
        perm = score.topk(k, dim=1).indices
        x = torch.gather(x * torch.tanh(score).unsqueeze(-1), 1, perm.unsqueeze(-1).expand(-1, -1, x.size(-1)))
        adj = torch.gather(adj, 1, perm.unsqueeze(-1).expand(-1, -1, adj.size(-1)))
        adj = torch.gather(adj, 2, perm.unsqueeze(1).expand(-1, k, -1))
        return x, adj

class Net(nn.Module):
    def __init__(self, args):
        super(Net, self).__init__()
        self.conv1 = GCNConv(args.num_features, args.nhid)
        self.pool1 = SAGPool(args.nhid, ratio=args.pooling_ratio)
        self.lin1 = nn.Linear(args.nhid * 2, args.nhid)
        self.lin2 = nn.Linear(args.nhid, args.num_classes)

    def forward(self, data):
        x, adj = data.x, data.adj
        x = F.relu(self.conv1(x, adj))
        x, adj = self.pool1(x, adj)
        x = torch.cat([x.max(dim=1).values, x.mean(dim=1)], dim=1)
        x = F.relu(self.lin1(x))
        return F.log_softmax(self.lin2(x), dim=-1)

class Batch:
    def __init__(self, x, adj, y):
        self.x, self.adj, self.y = x, adj, y

    def to(self, device):
        return Batch(self.x.to(device), self.adj.to(device), self.y.to(device))

args = argparse.Namespace(device="cuda:0", num_features=8, nhid=16, num_classes=2, pooling_ratio=0.5, lr=0.0005)
model = Net(args)                                          # line 97: Net(args)
optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)
train_loader = [Batch(torch.randn(4, 10, 8), (torch.rand(4, 10, 10) > 0.7).float(), torch.randint(0, 2, (4,)))]
'''
CELL = '''
model.train()
for i, data in enumerate(train_loader):
    data = data.to(args.device)
    out = model(data)
    loss = F.nll_loss(out, data.y)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device",
                "should be the same")
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model = model.to(args.device)
'''
REFERENCE_EDIT = None
CLEAN = False
