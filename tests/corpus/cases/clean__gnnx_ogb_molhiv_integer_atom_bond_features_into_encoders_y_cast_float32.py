"""Look-alike: OGB ogbg-molhiv GIN keeps integer (torch.long) atom/bond features and casts the Long labels to float32 only for the loss.

Source: https://github.com/snap-stanford/ogb/blob/master/examples/graphproppred/mol/main_pyg.py
(with ogb/graphproppred/mol_encoder.py). Molecule graphs carry 9 categorical atom features and 3
categorical bond features as int64; `AtomEncoder`/`BondEncoder` sum one `Embedding` per column, so the
integer tensors are never cast. `batch.y` is Long; the training loop builds `is_labeled = batch.y ==
batch.y` and calls `BCEWithLogitsLoss` on `pred.to(torch.float32)[is_labeled]` and
`batch.y.to(torch.float32)[is_labeled]`. Stand-in: OGB's encoders and GINConv (with BondEncoder,
`(1 + eps) * x + sum(relu(x_j + edge_emb))`), mean readout, one collated batch; dims reduced.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F

def get_atom_feature_dims():
    return [119, 5, 12, 12, 10, 6, 6, 2, 2]

def get_bond_feature_dims():
    return [5, 6, 2]

class AtomEncoder(torch.nn.Module):
    def __init__(self, emb_dim):
        super(AtomEncoder, self).__init__()
        self.atom_embedding_list = torch.nn.ModuleList()
        for i, dim in enumerate(get_atom_feature_dims()):
            emb = torch.nn.Embedding(dim, emb_dim)
            torch.nn.init.xavier_uniform_(emb.weight.data)
            self.atom_embedding_list.append(emb)

    def forward(self, x):
        x_embedding = 0
        for i in range(x.shape[1]):
            x_embedding += self.atom_embedding_list[i](x[:, i])
        return x_embedding

class BondEncoder(torch.nn.Module):
    def __init__(self, emb_dim):
        super(BondEncoder, self).__init__()
        self.bond_embedding_list = torch.nn.ModuleList()
        for i, dim in enumerate(get_bond_feature_dims()):
            emb = torch.nn.Embedding(dim, emb_dim)
            torch.nn.init.xavier_uniform_(emb.weight.data)
            self.bond_embedding_list.append(emb)

    def forward(self, edge_attr):
        bond_embedding = 0
        for i in range(edge_attr.shape[1]):
            bond_embedding += self.bond_embedding_list[i](edge_attr[:, i])
        return bond_embedding

class GINConv(torch.nn.Module):
    def __init__(self, emb_dim):
        super(GINConv, self).__init__()
        self.mlp = torch.nn.Sequential(torch.nn.Linear(emb_dim, 2 * emb_dim), torch.nn.ReLU(),
                                       torch.nn.Linear(2 * emb_dim, emb_dim))
        self.eps = torch.nn.Parameter(torch.Tensor([0]))
        self.bond_encoder = BondEncoder(emb_dim=emb_dim)

    def forward(self, x, edge_index, edge_attr):
        edge_embedding = self.bond_encoder(edge_attr)
        msg = F.relu(x[edge_index[0]] + edge_embedding)
        aggr = torch.zeros_like(x).index_add_(0, edge_index[1], msg)
        return self.mlp((1 + self.eps) * x + aggr)

class GNN(torch.nn.Module):
    def __init__(self, num_tasks, num_layer=2, emb_dim=32):
        super(GNN, self).__init__()
        self.atom_encoder = AtomEncoder(emb_dim)
        self.convs = torch.nn.ModuleList([GINConv(emb_dim) for _ in range(num_layer)])
        self.graph_pred_linear = torch.nn.Linear(emb_dim, num_tasks)

    def forward(self, batched_data):
        x, edge_index, edge_attr, batch = (batched_data.x, batched_data.edge_index,
                                           batched_data.edge_attr, batched_data.batch)
        h = self.atom_encoder(x)
        for conv in self.convs:
            h = F.relu(conv(h, edge_index, edge_attr))
        num_graphs = batched_data.num_graphs
        h_graph = torch.zeros(num_graphs, h.size(1)).index_add_(0, batch, h)
        counts = torch.zeros(num_graphs).index_add_(0, batch, torch.ones(batch.size(0)))
        return self.graph_pred_linear(h_graph / counts.clamp(min=1).unsqueeze(-1))

class Batch:
    def __init__(self, x, edge_index, edge_attr, y, batch, num_graphs):
        self.x, self.edge_index, self.edge_attr = x, edge_index, edge_attr
        self.y, self.batch, self.num_graphs = y, batch, num_graphs

    def to(self, device):
        return Batch(self.x.to(device), self.edge_index.to(device), self.edge_attr.to(device),
                     self.y.to(device), self.batch.to(device), self.num_graphs)

def collate_molecules(num_graphs=4, atoms=6, seed=0):
    gen = torch.Generator().manual_seed(seed)
    xs, eis, eas, bs = [], [], [], []
    for g in range(num_graphs):
        xs.append(torch.stack([torch.randint(0, d, (atoms,), generator=gen) for d in get_atom_feature_dims()], 1))
        src = torch.arange(atoms - 1) + g * atoms
        eis.append(torch.stack([torch.cat([src, src + 1]), torch.cat([src + 1, src])]))
        eas.append(torch.stack([torch.randint(0, d, (2 * (atoms - 1),), generator=gen)
                                for d in get_bond_feature_dims()], 1))
        bs.append(torch.full((atoms,), g, dtype=torch.long))
    y = torch.randint(0, 2, (num_graphs, 1), generator=gen)
    return Batch(torch.cat(xs), torch.cat(eis, 1), torch.cat(eas), y, torch.cat(bs), num_graphs)

cls_criterion = torch.nn.BCEWithLogitsLoss()
device = torch.device("cpu")
model = GNN(num_tasks=1).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
task_type = "binary classification"
batch = collate_molecules().to(device)
'''
CELL = '''
model.train()
pred = model(batch)
optimizer.zero_grad()
## ignore nan targets (unlabeled) when computing training loss.
is_labeled = batch.y == batch.y
if "classification" in task_type:
    loss = cls_criterion(pred.to(torch.float32)[is_labeled], batch.y.to(torch.float32)[is_labeled])
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
