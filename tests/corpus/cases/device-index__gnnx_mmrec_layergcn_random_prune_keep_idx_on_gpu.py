"""MMRec LayerGCN edge pruning: the random `keep_idx` is sent to the GPU but indexes the CPU `edge_indices`.

Source: https://github.com/enoche/MMRec/issues/21
Training LayerGCN on a GPU failed in `pre_epoch_processing` (layergcn.py L56-61) once the random
pruning branch ran: "The parameters are not on the same device, one GPU and one CPU. When we remove
.to(self.device), the problem is solved." Maintainer: "removing .to(self.device) in random setting is
correct". `get_edge_info` keeps `edge_indices`/`edge_values` as plain CPU attributes, and the random
`keep_idx` was built with `.to(self.device)`. Stand-in: LayerGCN's pruning path as in MMRec (pruning
alternates multinomial / random between epochs), with the torch.sparse normalisation replaced by a
dense `index_add_` equivalent and the fancy index `edge_indices[:, keep_idx]` written as
`index_select` (the simulated device does not check device of a fancy index).
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import random
import numpy as np
import torch
import torch.nn as nn

class GeneralRecommender(nn.Module):
    def __init__(self, config, dataset):
        super().__init__()
        self.n_users = dataset.n_users
        self.n_items = dataset.n_items
        self.device = config['device']

class InterDataset:
    def __init__(self, n_users, n_items, n_inter, seed=0):
        rng = np.random.default_rng(seed)
        self.n_users, self.n_items = n_users, n_items
        self.row = rng.integers(0, n_users, n_inter)
        self.col = rng.integers(0, n_items, n_inter)

class LayerGCN(GeneralRecommender):
    def __init__(self, config, dataset):
        super(LayerGCN, self).__init__(config, dataset)
        self.interaction_rows = dataset.row
        self.interaction_cols = dataset.col
        self.latent_dim = config['embedding_size']
        self.n_layers = config['n_layers']
        self.dropout = config['dropout']
        self.n_nodes = self.n_users + self.n_items
        self.user_embeddings = nn.Parameter(nn.init.xavier_uniform_(torch.empty(self.n_users, self.latent_dim)))
        self.item_embeddings = nn.Parameter(nn.init.xavier_uniform_(torch.empty(self.n_items, self.latent_dim)))
        # edge prune
        self.edge_indices, self.edge_values = self.get_edge_info()
        self.norm_adj_matrix = self.build_adj(self.edge_indices, self.edge_values).to(self.device)
        self.masked_adj = None
        self.pruning_random = False

    def pre_epoch_processing(self):
        if self.dropout <= .0:
            self.masked_adj = self.norm_adj_matrix
            return
        keep_len = int(self.edge_values.size(0) * (1. - self.dropout))
        if self.pruning_random:
            # pruning randomly
            keep_idx = torch.tensor(random.sample(range(self.edge_values.size(0)), keep_len)).to(self.device)
        else:
            # pruning edges by pro
            keep_idx = torch.multinomial(self.edge_values, keep_len)
        self.pruning_random = True ^ self.pruning_random
        keep_indices = self.edge_indices.index_select(1, keep_idx)
        keep_values = self._normalize_adj_m(keep_indices, (self.n_users, self.n_items))
        self.masked_adj = self.build_adj(keep_indices, keep_values).to(self.device)

    def _normalize_adj_m(self, indices, adj_size):
        ones = torch.ones(indices.size(1))
        row_sum = 1e-7 + torch.zeros(adj_size[0]).index_add_(0, indices[0], ones)
        col_sum = 1e-7 + torch.zeros(adj_size[1]).index_add_(0, indices[1], ones)
        rows_inv_sqrt = torch.pow(row_sum, -0.5).index_select(0, indices[0])
        cols_inv_sqrt = torch.pow(col_sum, -0.5).index_select(0, indices[1])
        return rows_inv_sqrt * cols_inv_sqrt

    def build_adj(self, indices, values):
        rows = torch.cat([indices[0], indices[1] + self.n_users])
        cols = torch.cat([indices[1] + self.n_users, indices[0]])
        adj = torch.zeros(self.n_nodes, self.n_nodes)
        return adj.index_put_((rows, cols), torch.cat([values, values]), accumulate=True)

    def get_edge_info(self):
        rows = torch.from_numpy(self.interaction_rows)
        cols = torch.from_numpy(self.interaction_cols)
        edges = torch.stack([rows, cols]).type(torch.LongTensor)
        values = self._normalize_adj_m(edges, (self.n_users, self.n_items))
        return edges, values

    def forward(self):
        ego = torch.cat([self.user_embeddings, self.item_embeddings], 0)
        all_embeddings = ego
        for _ in range(self.n_layers):
            all_embeddings = self.masked_adj @ all_embeddings
        return torch.split(all_embeddings, [self.n_users, self.n_items])

random.seed(0)
torch.manual_seed(0)
config = {'device': torch.device('cuda:0'), 'embedding_size': 16, 'n_layers': 2, 'dropout': 0.1}
train_data = InterDataset(n_users=12, n_items=20, n_inter=60)
model = LayerGCN(config, train_data).to(config['device'])

# epoch 1: multinomial pruning
model.pre_epoch_processing()
with torch.no_grad():
    user_e, item_e = model()
'''
CELL = '''
# epoch 2: random pruning
model.pre_epoch_processing()
with torch.no_grad():
    user_e, item_e = model()
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "indices should be either on cpu or on the same device")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "keep_idx = torch.tensor(random.sample(range(self.edge_values.size(0)), keep_len)).to(self.device)",
    "keep_idx = torch.tensor(random.sample(range(self.edge_values.size(0)), keep_len))",
)
CLEAN = False
