"""RecBole SimpleX keeps the user history matrix from `dataset.history_item_matrix()` as plain CPU attributes of a cuda model.

Source: https://github.com/RUCAIBox/RecBole/pull/1282
In the PR adding SimpleX, `__init__` stored `self.history_item_id, _, self.history_item_len =
dataset.history_item_matrix()` and `calculate_loss` looks the batch's users up in them. The reviewer
reports that it errors when run on the GPU: those tensors are plain attributes, so
`model.to(config['device'])` leaves them on the CPU while `interaction[self.USER_ID]` is on cuda; the fix
asked for is `self.history_item_id = self.history_item_id.to(self.device)` (and the same for
`history_item_len`). Stand-in: a reduced SimpleX (embeddings, history aggregation, cosine scores)
and a toy interaction dict; the loss is cut to the scoring part; the `[user]` lookups are
written as `index_select(0, user)` (the same gather; indexing a simulated cuda tensor is unsupported).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class Dataset:
    def history_item_matrix(self, n_users=10, max_len=5, n_items=50):
        g = torch.Generator().manual_seed(0)
        history_item_id = torch.randint(1, n_items, (n_users, max_len), generator=g)
        history_item_value = torch.ones(n_users, max_len)
        history_item_len = torch.randint(1, max_len + 1, (n_users,), generator=g)
        return history_item_id, history_item_value, history_item_len

class SimpleX(nn.Module):
    def __init__(self, dataset, n_users=10, n_items=50, embedding_size=16):
        super().__init__()
        self.USER_ID, self.ITEM_ID = "user_id", "item_id"
        self.history_item_id, _, self.history_item_len = dataset.history_item_matrix()
        self.user_emb = nn.Embedding(n_users, embedding_size)
        self.item_emb = nn.Embedding(n_items, embedding_size, padding_idx=0)
        self.UI_map = nn.Linear(embedding_size, embedding_size, bias=False)
        self.gamma = 0.5

    def get_UI_aggregation(self, user_e, history_item_e, history_len):
        out = history_item_e.sum(dim=1) / history_len.unsqueeze(1).float()
        return self.gamma * user_e + (1 - self.gamma) * self.UI_map(out)

    def forward(self, user, pos_item):
        user_e = self.user_emb(user)
        history_item = self.history_item_id.index_select(0, user)      # RecBole: self.history_item_id[user]
        history_len = self.history_item_len.index_select(0, user)
        history_item_e = self.item_emb(history_item)
        UI_aggregation_e = self.get_UI_aggregation(user_e, history_item_e, history_len)
        pos_item_e = self.item_emb(pos_item)
        return F.cosine_similarity(UI_aggregation_e, pos_item_e, dim=-1)

    def calculate_loss(self, interaction):
        user = interaction[self.USER_ID]
        pos_item = interaction[self.ITEM_ID]
        pos_cos = self.forward(user, pos_item)
        return torch.relu(1 - pos_cos).mean()

device = torch.device("cuda:0")
model = SimpleX(Dataset()).to(device)
interaction = {"user_id": torch.randint(0, 10, (8,)).to(device), "item_id": torch.randint(1, 50, (8,)).to(device)}
'''
CELL = '''
with torch.no_grad():
    loss = model.calculate_loss(interaction)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "indices should be either on cpu or on the same device")
CULPRITS = ["model.history_item_id"]
FIX = "namespace"
REFERENCE_FIX = '''
model.history_item_id = model.history_item_id.to(device)
model.history_item_len = model.history_item_len.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
