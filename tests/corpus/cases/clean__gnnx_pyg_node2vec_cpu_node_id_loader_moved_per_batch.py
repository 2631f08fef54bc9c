"""Look-alike: PyG Node2Vec example iterates a CPU loader of node ids and moves each `subset` in the loop.

Source: https://github.com/pyg-team/pytorch_geometric/blob/master/examples/node2vec.py
`loader = DataLoader(torch.arange(data.num_nodes), batch_size=128, shuffle=True)` yields CPU node-id
batches; the model and `data` are moved once (`model, data = model.to(device), data.to(device)`) and
`train()` calls `model.loss(data.edge_index, subset.to(device))`; `test()` embeds all nodes with
`torch.arange(data.num_nodes, device=device)`. Stand-in: a Node2Vec-like skip-gram model (embedding
table, walks drawn on the batch's device, positive/negative sigmoid loss), a single-process loader
(`torch.randperm` batches); the loss is summed as a tensor instead of `loss.item()`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Node2Vec(nn.Module):
    EPS = 1e-15

    def __init__(self, num_nodes, embedding_dim, walk_length, context_size, walks_per_node=1):
        super().__init__()
        self.num_nodes = num_nodes
        self.walk_length, self.context_size = walk_length, context_size
        self.walks_per_node = walks_per_node
        self.embedding = nn.Embedding(num_nodes, embedding_dim)

    def forward(self, batch=None):
        emb = self.embedding.weight
        return emb if batch is None else emb.index_select(0, batch)

    def pos_sample(self, edge_index, batch):
        batch = batch.repeat(self.walks_per_node)
        steps = torch.randint(0, edge_index.size(1), (batch.size(0), self.walk_length - 1),
                              device=batch.device)
        walk = edge_index[1].index_select(0, steps.view(-1)).view(batch.size(0), -1)
        return torch.cat([batch.view(-1, 1), walk], dim=-1)

    def neg_sample(self, batch):
        batch = batch.repeat(self.walks_per_node)
        rw = torch.randint(self.num_nodes, (batch.size(0), self.walk_length - 1), device=batch.device)
        return torch.cat([batch.view(-1, 1), rw], dim=-1)

    def loss(self, edge_index, subset):
        pos_rw, neg_rw = self.pos_sample(edge_index, subset), self.neg_sample(subset)
        losses = []
        for rw in (pos_rw, neg_rw):
            start, rest = rw.narrow(1, 0, 1), rw.narrow(1, 1, self.context_size)
            h_start = self.embedding(start)
            h_rest = self.embedding(rest)
            out = (h_start * h_rest).sum(dim=-1).view(-1)
            losses.append(out)
        pos_loss = -torch.log(torch.sigmoid(losses[0]) + self.EPS).mean()
        neg_loss = -torch.log(1 - torch.sigmoid(losses[1]) + self.EPS).mean()
        return pos_loss + neg_loss

class Data:
    def __init__(self, edge_index, num_nodes):
        self.edge_index, self.num_nodes = edge_index, num_nodes

    def to(self, device):
        return Data(self.edge_index.to(device), self.num_nodes)

class DataLoader:
    # torch DataLoader(torch.arange(n), batch_size, shuffle=True), single process
    def __init__(self, dataset, batch_size, shuffle=True):
        self.dataset, self.batch_size, self.shuffle = dataset, batch_size, shuffle

    def __iter__(self):
        order = torch.randperm(self.dataset.size(0)) if self.shuffle else torch.arange(self.dataset.size(0))
        for i in range(0, self.dataset.size(0), self.batch_size):
            yield self.dataset.index_select(0, order.narrow(0, i, min(self.batch_size, self.dataset.size(0) - i)))

    def __len__(self):
        return (self.dataset.size(0) + self.batch_size - 1) // self.batch_size

torch.manual_seed(0)
data = Data(torch.randint(0, 60, (2, 240)), num_nodes=60)
loader = DataLoader(torch.arange(data.num_nodes), batch_size=16, shuffle=True)

device = 'cuda:0'
model = Node2Vec(data.num_nodes, embedding_dim=32, walk_length=8, context_size=4, walks_per_node=2)
model, data = model.to(device), data.to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
'''
CELL = '''
model.train()
total_loss = 0
with torch.no_grad():
    for subset in loader:
        loss = model.loss(data.edge_index, subset.to(device))
        total_loss = total_loss + loss
    model.eval()
    z = model(torch.arange(data.num_nodes, device=device))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
