"""DGL model_zoo MNIST ChebNet: the test loop moves `x` and `y` but not the list of batched graphs `g`.

Source: https://github.com/dmlc/dgl/issues/3527
"`mnist.py` example script for pytorch, raises a Runtime error at line 181, because the variable `g` is
not moved to device explicitly": training runs for an epoch (the train loop does
`g = [g_i.to(device) for g_i in g]`), then the evaluation loop calls `out = model(g, x)` with the
collated graphs still on the CPU. Stand-in: the example's `batcher` returning one batched graph per
coarsening level, a DGLGraph-like batch whose `.to()` returns a moved copy, ChebConv computing the
rescaled Laplacian from the graph's adjacency (dense instead of `update_all`), MaxPooling readout;
sizes reduced.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class BatchedGraph:
    """dgl.batch of identical grid graphs: block-diagonal adjacency."""
    def __init__(self, adj, batch_size):
        self.adj = adj
        self.batch_size = batch_size

    def in_degrees(self):
        return self.adj.sum(0)

    def to(self, device):
        return BatchedGraph(self.adj.to(device), self.batch_size)

def batch_graphs(adjs):
    return BatchedGraph(torch.block_diag(*adjs), len(adjs))

def grid_adj(n, seed):
    gen = torch.Generator().manual_seed(seed)
    a = (torch.rand(n, n, generator=gen) > 0.6).float()
    a = ((a + a.t()) > 0).float()
    a.fill_diagonal_(0)
    return a

coarsening_levels = 2
sizes = [16, 8, 4]
g_arr = [grid_adj(n, i) for i, n in enumerate(sizes)]

def batcher(batch):
    g_batch = [[] for _ in range(coarsening_levels + 1)]
    x_batch, y_batch = [], []
    for x, y in batch:
        x_batch.append(x.view(-1))
        y_batch.append(y)
        for i in range(coarsening_levels + 1):
            g_batch[i].append(g_arr[i])
    x_batch = torch.cat(x_batch).unsqueeze(-1)
    y_batch = torch.LongTensor(y_batch)
    g_batch = [batch_graphs(g) for g in g_batch]
    return g_batch, x_batch, y_batch

class ChebConv(nn.Module):
    def __init__(self, in_feats, out_feats, k):
        super().__init__()
        self._k = k
        self.linear = nn.Linear(k * in_feats, out_feats)

    def forward(self, graph, feat, lambda_max):
        D_invsqrt = torch.pow(graph.in_degrees().float().clamp(min=1), -0.5).unsqueeze(-1).to(feat.device)
        re_norm = 2. / torch.tensor(lambda_max[0], dtype=feat.dtype).to(feat.device)
        def unnLaplacian(h):
            return (graph.adj @ (h * D_invsqrt)) * D_invsqrt
        X_0 = feat
        Xt = [X_0]
        if self._k > 1:
            h = unnLaplacian(X_0)
            X_1 = -re_norm * h + X_0 * (re_norm - 1)
            Xt.append(X_1)
        return self.linear(torch.cat(Xt, dim=1))

class MaxPooling(nn.Module):
    def forward(self, graph, feat):
        return feat.view(graph.batch_size, -1, feat.size(-1)).max(1)[0]

class ChebNet(nn.Module):
    def __init__(self, k, in_feats, hiddens, out_feats):
        super(ChebNet, self).__init__()
        self.pool = nn.MaxPool1d(2)
        self.layers = nn.ModuleList()
        self.readout = MaxPooling()
        self.layers.append(ChebConv(in_feats, hiddens[0], k))
        for i in range(1, len(hiddens)):
            self.layers.append(ChebConv(hiddens[i - 1], hiddens[i], k))
        self.cls = nn.Sequential(nn.Linear(hiddens[-1], out_feats), nn.LogSoftmax(dim=-1))

    def forward(self, g_arr, feat):
        for g, layer in zip(g_arr, self.layers):
            feat = self.pool(layer(g, feat, [2] * g.batch_size).transpose(-1, -2).unsqueeze(0))\\
                .squeeze(0).transpose(-1, -2)
        return self.cls(self.readout(g_arr[-1], feat))

torch.manual_seed(0)
testset = [(torch.rand(4, 4), i % 10) for i in range(8)]
trainset = testset
class DataLoader:
    # torch DataLoader(testset, batch_size, shuffle=False, collate_fn=batcher), single process
    def __init__(self, dataset, batch_size, collate_fn):
        self.dataset, self.batch_size, self.collate_fn = dataset, batch_size, collate_fn
    def __iter__(self):
        for i in range(0, len(self.dataset), self.batch_size):
            yield self.collate_fn(self.dataset[i:i + self.batch_size])

test_loader = DataLoader(testset, batch_size=4, collate_fn=batcher)

device = torch.device("cuda:0")
model = ChebNet(2, 1, [8, 16], 10)
model = model.to(device)

# training loop (one step): the graphs are moved here
model.train()
for i, (g, x, y) in enumerate(DataLoader(trainset, batch_size=4, collate_fn=batcher)):
    x = x.to(device)
    y = y.to(device)
    g = [g_i.to(device) for g_i in g]
    with torch.no_grad():
        out = model(g, x)
    break

model.eval()
g, x, y = next(iter(test_loader))
x = x.to(device)
y = y.to(device)
'''
CELL = '''
with torch.no_grad():
    out = model(g, x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["g"]
FIX = "namespace"
REFERENCE_FIX = '''
g = [g_i.to(device) for g_i in g]
'''
REFERENCE_EDIT = None
CLEAN = False
