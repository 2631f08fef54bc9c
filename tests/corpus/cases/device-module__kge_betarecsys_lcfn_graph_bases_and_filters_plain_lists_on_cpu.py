"""beta-recsys LCFN (low-pass graph collaborative filtering) on a GPU: graph bases, filters and transformers stay on the CPU.

Source: https://github.com/beta-team/beta-recsys/pull/367
Reviewing the PR that adds LCFN, the maintainer reported "Cannot be executed successfully with a
bug when running within GPU machines", with a traceback from `train_lcfn.py` through
`LCFNEngine.train_single_batch` into `self.model.forward()`. `LCFN.__init__` keeps the graph
Fourier bases `self.P`/`self.Q` as plain tensor attributes and the per-layer `user_filters`,
`item_filters` and `transformers` in Python lists, so the engine's `self.model.to(self.device)`
moves only the two embedding tables and `forward` multiplies CPU bases with CUDA embeddings. The
PR's follow-up commit (cff9cb4) moves `self.P`, `self.Q` and every filter/transformer
`.to(self.device)` at the start of `forward`.
Stand-in: ModelEngine.set_device, LCFN and LCFNEngine reduced (BPR loss without the regulariser;
batch rows gathered with `index_select`, which the simulation supports on fake cuda; no backward).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn


class LCFN(torch.nn.Module):
    """Model initialisation, embedding generation and prediction of Low-pass Collaborative Filters."""

    def __init__(self, config, graph_embeddings):
        super(LCFN, self).__init__()
        self.n_users = config["n_users"]
        self.n_items = config["n_items"]
        self.emb_dim = config["emb_dim"]
        [self.P, self.Q] = graph_embeddings
        self.layer = config["layer"]
        self.lamda = config["lamda"]
        self.frequence_user = int(np.shape(self.P)[1])
        self.frequence_item = int(np.shape(self.Q)[1])
        self.P = torch.tensor(self.P)
        self.Q = torch.tensor(self.Q)
        self.user_embeddings = nn.Embedding(self.n_users, self.emb_dim)
        self.item_embeddings = nn.Embedding(self.n_items, self.emb_dim)
        self.init_emb()
        self.user_filters = []
        for k in range(self.layer):
            self.user_filters.append(torch.normal(mean=1, std=0.001, size=(1, self.frequence_user))[0])
        self.item_filters = []
        for k in range(self.layer):
            self.item_filters.append(torch.normal(size=(1, self.frequence_item), mean=1, std=0.001)[0])
        self.transformers = []
        for k in range(self.layer):
            self.transformers.append(torch.tensor(
                (np.random.normal(0, 0.001, (self.emb_dim, self.emb_dim))
                 + np.diag(np.random.normal(1, 0.001, self.emb_dim))).astype(np.float32)))

    def init_emb(self):
        nn.init.normal_(self.user_embeddings.weight, mean=0.01, std=0.02)
        nn.init.normal_(self.item_embeddings.weight, mean=0.01, std=0.02)

    def forward(self):
        """Graph propagation and noise filtering."""
        User_embedding = self.user_embeddings
        self.user_all_embeddings = [User_embedding.weight]
        for k in range(self.layer):
            User_embedding = torch.matmul(
                torch.matmul(self.P, torch.diag(self.user_filters[k])),
                torch.matmul(torch.transpose(self.P, 0, 1), User_embedding.weight),
            )
            User_embedding = torch.sigmoid(torch.matmul(User_embedding, self.transformers[k]))
            self.user_all_embeddings += [User_embedding]
        self.user_all_embeddings = torch.cat(self.user_all_embeddings, 1)

        Item_embedding = self.item_embeddings
        self.item_all_embeddings = [Item_embedding.weight]
        for k in range(self.layer):
            Item_embedding = torch.matmul(
                torch.matmul(self.Q, torch.diag(self.item_filters[k])),
                torch.matmul(torch.transpose(self.Q, 0, 1), Item_embedding.weight),
            )
            Item_embedding = torch.sigmoid(torch.matmul(Item_embedding, self.transformers[k]))
            self.item_all_embeddings += [Item_embedding]
        self.item_all_embeddings = torch.cat(self.item_all_embeddings, 1)


class ModelEngine:
    def __init__(self, config):
        self.config = config
        self.set_device()
        self.model.to(self.device)

    def set_device(self):
        """Set device."""
        self.device = torch.device(self.config["model"]["device_str"])
        self.model.device = self.device
        print("Setting device for torch_engine", self.device)


class LCFNEngine(ModelEngine):
    def __init__(self, config):
        self.config = config
        self.graph_embeddings = config["model"]["graph_embeddings"]
        self.model = LCFN(config["model"], self.graph_embeddings)
        super(LCFNEngine, self).__init__(config)
        self.model.to(self.device)

    def train_single_batch(self, batch_data):
        self.model.forward()
        user_all_embeddings = self.model.user_all_embeddings
        item_all_embeddings = self.model.item_all_embeddings
        batch_users, pos_items, neg_items = batch_data
        user_all_emb = user_all_embeddings.index_select(0, batch_users)
        pos_i_all = item_all_embeddings.index_select(0, pos_items)
        neg_i_all = item_all_embeddings.index_select(0, neg_items)
        pos_scores = torch.mul(user_all_emb, pos_i_all).sum(dim=1)
        neg_scores = torch.mul(user_all_emb, neg_i_all).sum(dim=1)
        return -torch.nn.functional.logsigmoid(pos_scores - neg_scores).mean()


n_users, n_items, f_user, f_item = 600, 900, 64, 96
rng = np.random.default_rng(0)
graph_embeddings = [rng.standard_normal((n_users, f_user)).astype(np.float32),
                    rng.standard_normal((n_items, f_item)).astype(np.float32)]
config = {"model": {"n_users": n_users, "n_items": n_items, "emb_dim": 64, "layer": 1, "lamda": 0.01,
                    "device_str": "cuda:0", "graph_embeddings": graph_embeddings}}
engine = LCFNEngine(config)
device = engine.device
batch_data = (torch.randint(0, n_users, (256,), device=device), torch.randint(0, n_items, (256,), device=device),
              torch.randint(0, n_items, (256,), device=device))
'''
CELL = '''
loss = engine.train_single_batch(batch_data)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["engine.model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    '''        """Graph propagation and noise filtering."""
        User_embedding = self.user_embeddings
''',
    '''        """Graph propagation and noise filtering."""
        self.P = self.P.to(self.device)
        self.Q = self.Q.to(self.device)
        for i in range(self.layer):
            self.user_filters[i] = self.user_filters[i].to(self.device)
            self.item_filters[i] = self.item_filters[i].to(self.device)
            self.transformers[i] = self.transformers[i].to(self.device)
        User_embedding = self.user_embeddings
''',
)
CLEAN = False
