"""Look-alike: PyG PNA on ZINC builds an integer (torch.long) in-degree histogram and feeds Long node/edge types to embeddings.

Source: https://github.com/pyg-team/pytorch_geometric/blob/master/examples/pna.py
The example computes `deg = torch.zeros(5, dtype=torch.long)` and accumulates
`torch.bincount(degree(data.edge_index[1], num_nodes=data.num_nodes, dtype=torch.long), minlength=...)`
over the training graphs, passes that Long histogram to every `PNAConv(..., deg=deg, ...)` (which turns
it into float average-degree statistics itself), embeds the Long `x` (`Embedding(21, 75)` on
`x.squeeze()`) and Long `edge_attr` (`Embedding(4, 50)`), and trains with the L1 loss
`(out.squeeze() - data.y).abs().mean()` on the float `y`. Stand-in: PNAConv reduced to one tower with
mean/min/max/std aggregators and identity/amplification/attenuation scalers, `global_add_pool` by
`index_add_`; sizes reduced.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F
from torch.nn import ModuleList, Embedding, Sequential, ReLU, Linear

def degree(index, num_nodes, dtype):
    return torch.zeros(num_nodes, dtype=dtype).index_add_(0, index, torch.ones(index.size(0), dtype=dtype))

class PNAConv(torch.nn.Module):
    def __init__(self, in_channels, out_channels, aggregators, scalers, deg, edge_dim):
        super().__init__()
        self.aggregators, self.scalers = aggregators, scalers
        deg = deg.to(torch.float)
        num_nodes = int(deg.sum())
        bin_degrees = torch.arange(deg.numel())
        self.avg_deg_lin = float((bin_degrees * deg).sum()) / num_nodes
        self.avg_deg_log = float(((bin_degrees + 1).log() * deg).sum()) / num_nodes
        self.pre = Linear(2 * in_channels + edge_dim, in_channels)
        self.post = Linear((len(aggregators) * len(scalers) + 1) * in_channels, out_channels)

    def forward(self, x, edge_index, edge_attr):
        src, dst = edge_index[0], edge_index[1]
        h = self.pre(torch.cat([x[dst], x[src], edge_attr], dim=-1))
        n, d = x.size(0), h.size(1)
        idx = dst.view(-1, 1).expand(-1, d)
        cnt = torch.zeros(n).index_add_(0, dst, torch.ones(dst.size(0))).clamp(min=1).view(-1, 1)
        mean = torch.zeros(n, d).index_add_(0, dst, h) / cnt
        sq = torch.zeros(n, d).index_add_(0, dst, h * h) / cnt
        outs = {'mean': mean,
                'min': torch.zeros(n, d).scatter_reduce(0, idx, h, reduce='amin', include_self=False),
                'max': torch.zeros(n, d).scatter_reduce(0, idx, h, reduce='amax', include_self=False),
                'std': (sq - mean * mean).clamp(min=1e-5).sqrt()}
        out = torch.cat([outs[a] for a in self.aggregators], dim=-1)
        log_deg = (cnt + 1).log()
        scaled = []
        for s in self.scalers:
            if s == 'identity':
                scaled.append(out)
            elif s == 'amplification':
                scaled.append(out * (log_deg / self.avg_deg_log))
            elif s == 'attenuation':
                scaled.append(out * (self.avg_deg_log / log_deg))
        return self.post(torch.cat([x] + scaled, dim=-1))

def global_add_pool(x, batch, size):
    return torch.zeros(size, x.size(1)).index_add_(0, batch, x)

class Data:
    def __init__(self, x, edge_index, edge_attr, y, batch=None, num_graphs=1):
        self.x, self.edge_index, self.edge_attr, self.y = x, edge_index, edge_attr, y
        self.batch, self.num_graphs = batch, num_graphs
        self.num_nodes = x.size(0)

def zinc_graph(gen, n=8):
    src = torch.arange(n - 1)
    ei = torch.stack([torch.cat([src, src + 1]), torch.cat([src + 1, src])])
    return Data(torch.randint(0, 21, (n, 1), generator=gen), ei,
                torch.randint(0, 4, (ei.size(1),), generator=gen), torch.randn(1, generator=gen))

def collate(graphs):
    xs, eis, eas, ys, bs, off = [], [], [], [], [], 0
    for i, g in enumerate(graphs):
        xs.append(g.x); eis.append(g.edge_index + off); eas.append(g.edge_attr); ys.append(g.y)
        bs.append(torch.full((g.num_nodes,), i, dtype=torch.long)); off += g.num_nodes
    return Data(torch.cat(xs), torch.cat(eis, 1), torch.cat(eas), torch.cat(ys), torch.cat(bs), len(graphs))

gen = torch.Generator().manual_seed(0)
train_dataset = [zinc_graph(gen) for _ in range(16)]

# Compute in-degree histogram over training data.
deg = torch.zeros(5, dtype=torch.long)
for data in train_dataset:
    d = degree(data.edge_index[1], num_nodes=data.num_nodes, dtype=torch.long)
    deg += torch.bincount(d, minlength=deg.numel())

class Net(torch.nn.Module):
    def __init__(self):
        super(Net, self).__init__()
        self.node_emb = Embedding(21, 32)
        self.edge_emb = Embedding(4, 16)
        aggregators = ['mean', 'min', 'max', 'std']
        scalers = ['identity', 'amplification', 'attenuation']
        self.convs = ModuleList()
        for _ in range(2):
            conv = PNAConv(in_channels=32, out_channels=32, aggregators=aggregators, scalers=scalers,
                           deg=deg, edge_dim=16)
            self.convs.append(conv)
        self.mlp = Sequential(Linear(32, 16), ReLU(), Linear(16, 1))

    def forward(self, x, edge_index, edge_attr, batch, num_graphs):
        x = self.node_emb(x.squeeze())
        edge_attr = self.edge_emb(edge_attr)
        for conv in self.convs:
            x = F.relu(conv(x, edge_index, edge_attr))
        x = global_add_pool(x, batch, num_graphs)
        return self.mlp(x)

device = torch.device('cpu')
model = Net().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
data = collate(train_dataset[:8])
'''
CELL = '''
model.train()
optimizer.zero_grad()
out = model(data.x, data.edge_index, data.edge_attr, data.batch, data.num_graphs)
loss = (out.squeeze() - data.y).abs().mean()
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
