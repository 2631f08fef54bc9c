"""RecBole auto-encoder recommenders (MultiVAE) on the GPU: the user-history matrices stay on the CPU and are indexed by CUDA user ids.

Source: https://github.com/RUCAIBox/RecBole/pull/1749
"[🐛BUG]: Convert tensors into the correct device": "Convert tensors into the correct gpu/cpu device in
`AutoEncoderMixin`". `build_histroy_items` kept `dataset.history_item_matrix()` (item ids and
values per user, CPU tensors) as plain attributes, so `model.to(config['device'])` left them on the
CPU, and `get_rating_matrix` indexes them with the batch's user ids, which the trainer put on the
GPU. The PR adds `.to(self.device)` to both. Stand-in: the mixin and MultiVAE as in RecBole (the
history gathered with `index_select` instead of `[user]`), a toy dataset's history matrix.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class Dataset:
    def __init__(self, n_users=100, n_items=300, max_hist=20):
        g = torch.Generator().manual_seed(0)
        self.n_users, self.n_items = n_users, n_items
        self._hist_id = torch.randint(1, n_items, (n_users, max_hist), generator=g)
        self._hist_value = torch.ones(n_users, max_hist)
    def num(self, field):
        return self.n_users if field == "user_id" else self.n_items
    def history_item_matrix(self):
        return self._hist_id, self._hist_value, torch.full((self.n_users,), self._hist_id.shape[1])

class AutoEncoderMixin(object):
    def build_histroy_items(self, dataset):
        self.history_item_id, self.history_item_value, _ = dataset.history_item_matrix()

    def get_rating_matrix(self, user):
        col_indices = self.history_item_id.index_select(0, user).flatten()
        row_indices = torch.arange(user.shape[0], device=self.device).repeat_interleave(
            self.history_item_id.shape[1], dim=0)
        rating_matrix = torch.zeros(1, device=self.device).repeat(user.shape[0], self.n_items)
        rating_matrix.index_put_((row_indices, col_indices), self.history_item_value.index_select(0, user).flatten())
        return rating_matrix

class MultiVAE(nn.Module, AutoEncoderMixin):
    def __init__(self, config, dataset):
        super().__init__()
        self.USER_ID = config["USER_ID_FIELD"]
        self.device = config["device"]
        self.n_items = dataset.num("item_id")
        self.build_histroy_items(dataset)
        self.lat_dim = config["latent_dimension"]
        self.drop_out = config["dropout_prob"]
        self.encoder = nn.Sequential(nn.Linear(self.n_items, 600), nn.Tanh(), nn.Linear(600, 2 * self.lat_dim))
        self.decoder = nn.Sequential(nn.Linear(self.lat_dim, 600), nn.Tanh(), nn.Linear(600, self.n_items))

    def forward(self, rating_matrix):
        h = F.normalize(rating_matrix)
        h = F.dropout(h, self.drop_out, training=self.training)
        h = self.encoder(h)
        mu, logvar = h.chunk(2, dim=1)
        z = mu
        return self.decoder(z), mu, logvar

    def full_sort_predict(self, interaction):
        user = interaction[self.USER_ID]
        rating_matrix = self.get_rating_matrix(user)
        scores, _, _ = self.forward(rating_matrix)
        return scores.view(-1)

config = {"USER_ID_FIELD": "user_id", "device": torch.device("cuda:0"), "latent_dimension": 64,
          "dropout_prob": 0.5}
dataset = Dataset()
model = MultiVAE(config, dataset).to(config["device"])
interaction = {"user_id": torch.arange(1, 33)}               # one eval batch of users
'''
CELL = '''
model.eval()
with torch.no_grad():
    batch = {k: v.to(config["device"]) for k, v in interaction.items()}   # trainer: interaction.to(device)
    scores = model.full_sort_predict(batch)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device",
                "indices should be either on cpu or on the same device as the indexed tensor")
CULPRITS = ["model.history_item_id"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        self.history_item_id, self.history_item_value, _ = dataset.history_item_matrix()\n",
                  "        self.history_item_id, self.history_item_value, _ = dataset.history_item_matrix()\n"
                  "        self.history_item_id = self.history_item_id.to(self.device)\n"
                  "        self.history_item_value = self.history_item_value.to(self.device)\n")
CLEAN = False
