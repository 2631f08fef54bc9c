"""Look-alike: DGL GCN example converts the graph to int32 ids (`g.int()`) and casts the integer in-degrees to float before `pow(-0.5)`.

Source: https://github.com/dmlc/dgl/blob/master/examples/pytorch/gcn/train.py
The script does `g = g.int().to(device)`, reads `features`, `labels` and the three masks from
`g.ndata`, then `degs = g.in_degrees().float()`, `norm = torch.pow(degs, -0.5).to(device)`,
`norm[torch.isinf(norm)] = 0`, `g.ndata["norm"] = norm.unsqueeze(1)`, trains a two-layer GraphConv
model with `CrossEntropyLoss` on `logits[train_mask]` and evaluates with `torch.max(logits, dim=1)`.
The int32 node/edge ids index the feature rows directly. Stand-in: a DGLGraph-like object (edge lists,
`ndata`, `.int()`, `.to()`, `in_degrees()` of the graph's id dtype), AddSelfLoop, GraphConv with
`norm='both'` (degrees clamped to 1) via `index_select`/`index_add_`; a small Cora-shaped graph.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class DGLGraph:
    def __init__(self, src, dst, num_nodes, ndata=None):
        self.src, self.dst, self._n = src, dst, num_nodes
        self.ndata = dict(ndata or {})

    def num_nodes(self):
        return self._n

    @property
    def idtype(self):
        return self.src.dtype

    def int(self):
        return DGLGraph(self.src.int(), self.dst.int(), self._n, self.ndata)

    def to(self, device):
        return DGLGraph(self.src.to(device), self.dst.to(device), self._n,
                        {k: v.to(device) for k, v in self.ndata.items()})

    def in_degrees(self):
        return torch.zeros(self._n, dtype=self.idtype, device=self.dst.device).index_add_(
            0, self.dst, torch.ones_like(self.dst))

    def out_degrees(self):
        return torch.zeros(self._n, dtype=self.idtype, device=self.src.device).index_add_(
            0, self.src, torch.ones_like(self.src))

class AddSelfLoop:
    def __call__(self, g):
        loop = torch.arange(g.num_nodes(), dtype=g.idtype)
        return DGLGraph(torch.cat([g.src, loop]), torch.cat([g.dst, loop]), g.num_nodes(), g.ndata)

class CoraGraphDataset:
    num_classes = 7
    def __init__(self, transform=None):
        gen = torch.Generator().manual_seed(0)
        n = 60
        g = DGLGraph(torch.randint(0, n, (200,), generator=gen), torch.randint(0, n, (200,), generator=gen), n)
        g.ndata["feat"] = torch.rand(n, 20, generator=gen)
        g.ndata["label"] = torch.randint(0, 7, (n,), generator=gen)
        perm = torch.randperm(n, generator=gen)
        for name, sl in (("train_mask", slice(0, 20)), ("val_mask", slice(20, 40)), ("test_mask", slice(40, 60))):
            m = torch.zeros(n, dtype=torch.bool)
            m[perm[sl]] = True
            g.ndata[name] = m
        self.graph = transform(g) if transform is not None else g

    def __getitem__(self, i):
        return self.graph

class GraphConv(nn.Module):
    def __init__(self, in_feats, out_feats, activation=None):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(in_feats, out_feats))
        self.bias = nn.Parameter(torch.zeros(out_feats))
        nn.init.xavier_uniform_(self.weight)
        self.activation = activation

    def forward(self, graph, feat):
        src_norm = torch.pow(graph.out_degrees().to(feat).clamp(min=1), -0.5).unsqueeze(-1)
        dst_norm = torch.pow(graph.in_degrees().to(feat).clamp(min=1), -0.5).unsqueeze(-1)
        h = torch.matmul(feat * src_norm, self.weight)
        rst = torch.zeros(graph.num_nodes(), h.size(1), device=h.device).index_add_(
            0, graph.dst, h.index_select(0, graph.src))
        rst = rst * dst_norm + self.bias
        return self.activation(rst) if self.activation is not None else rst

class GCN(nn.Module):
    def __init__(self, in_size, hid_size, out_size):
        super().__init__()
        self.layers = nn.ModuleList()
        self.layers.append(GraphConv(in_size, hid_size, activation=F.relu))
        self.layers.append(GraphConv(hid_size, out_size))
        self.dropout = nn.Dropout(0.5)

    def forward(self, g, features):
        h = features
        for i, layer in enumerate(self.layers):
            if i != 0:
                h = self.dropout(h)
            h = layer(g, h)
        return h

def evaluate(g, features, labels, mask, model):
    model.eval()
    with torch.no_grad():
        logits = model(g, features)
        logits = logits[mask]
        labels = labels[mask]
        _, indices = torch.max(logits, dim=1)
        correct = torch.sum(indices == labels)
        return correct.item() * 1.0 / len(labels)

transform = AddSelfLoop()
data = CoraGraphDataset(transform=transform)
g = data[0]
device = torch.device("cpu")
g = g.int().to(device)
features = g.ndata["feat"]
labels = g.ndata["label"]
masks = g.ndata["train_mask"], g.ndata["val_mask"], g.ndata["test_mask"]

# normalization
degs = g.in_degrees().float()
norm = torch.pow(degs, -0.5).to(device)
norm[torch.isinf(norm)] = 0
g.ndata["norm"] = norm.unsqueeze(1)

in_size = features.shape[1]
out_size = data.num_classes
model = GCN(in_size, 16, out_size).to(device)
loss_fcn = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=5e-4)
train_mask, val_mask = masks[0], masks[1]
'''
CELL = '''
model.train()
logits = model(g, features)
loss = loss_fcn(logits[train_mask], labels[train_mask])
optimizer.zero_grad()
loss.backward()
optimizer.step()
acc = evaluate(g, features, labels, val_mask, model)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
