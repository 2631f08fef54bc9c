"""DGL batched graph classification tutorial on one GPU: `model` and `bg` moved, the batch `label` left on the CPU.

Source: https://github.com/dmlc/dgl/issues/486
Converting the "Batched Graph Classification with DGL" tutorial (4_batch.py) to a single GPU failed at
`loss = loss_func(prediction, label)` ("Expected object of backend CUDA but got backend CPU for argument
#2 'target'"). The maintainers: "Do you convert all `bg`, `label` and `model` to cuda?" / "you will need
to move `label` to cuda". Stand-in: the tutorial's Classifier (two GCN layers on in-degree features,
mean readout) over a dense block-diagonal batched adjacency; `collate` returns `(bg, label)` as in the
tutorial.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class BatchedGraph:
    def __init__(self, adj, membership):
        self.adj, self.membership = adj, membership        # N x N, B x N

    def in_degrees(self):
        return self.adj.sum(0)

    def to(self, device):
        return BatchedGraph(self.adj.to(device), self.membership.to(device))

def collate(samples):
    graphs, labels = map(list, zip(*samples))
    n = sum(g.shape[0] for g in graphs)
    adj = torch.zeros(n, n)
    membership = torch.zeros(len(graphs), n)
    start = 0
    for i, g in enumerate(graphs):
        k = g.shape[0]
        adj[start:start + k, start:start + k] = g
        membership[i, start:start + k] = 1.0 / k
        start += k
    return BatchedGraph(adj, membership), torch.tensor(labels)

class GCN(nn.Module):
    def __init__(self, in_feats, out_feats, activation):
        super(GCN, self).__init__()
        self.linear = nn.Linear(in_feats, out_feats)
        self.activation = activation

    def forward(self, g, feature):
        h = g.adj.t() @ feature                             # update_all(msg, reduce)
        return self.activation(self.linear(h))

class Classifier(nn.Module):
    def __init__(self, in_dim, hidden_dim, n_classes):
        super(Classifier, self).__init__()
        self.layers = nn.ModuleList([GCN(in_dim, hidden_dim, F.relu), GCN(hidden_dim, hidden_dim, F.relu)])
        self.classify = nn.Linear(hidden_dim, n_classes)

    def forward(self, g):
        h = g.in_degrees().view(-1, 1).float()
        for conv in self.layers:
            h = conv(g, h)
        hg = g.membership @ h                               # dgl.mean_nodes(g, 'h')
        return self.classify(hg)

def random_graph(k):
    a = (torch.rand(k, k) > 0.6).float()
    return ((a + a.t()) > 0).float()

trainset = [(random_graph(5 + i % 4), i % 8) for i in range(16)]
device = torch.device("cuda:0")
model = Classifier(1, 256, 8).to(device)
loss_func = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
model.train()

bg, label = collate(trainset[:8])                           # one batch of the DataLoader
bg = bg.to(device)
'''
CELL = '''
with torch.no_grad():
    prediction = model(bg)
    loss = loss_func(prediction, label)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["label"]
FIX = "namespace"
REFERENCE_FIX = '''
label = label.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
