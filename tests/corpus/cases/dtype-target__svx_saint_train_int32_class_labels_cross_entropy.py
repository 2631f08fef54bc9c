"""SAINT `train.py` on Windows: the class labels come out of the dataset as int32 and CrossEntropyLoss wants Long.

Source: https://github.com/somepago/saint/pull/10
Running SAINT's train.py on Windows (PyTorch 1.8.2, virtualenv) stopped at line 195,
`loss = criterion(y_outs, y_gts.squeeze())`, with a tensor-type error "which was expecting a Long
and was receiving an Int": `DataSetCatCon` keeps the label-encoded `y` as the platform's default
numpy int, which is int32 on Windows, so `y_gts` is an IntTensor. The PR casts the labels to Long
before the loss.
Stand-in: DataSetCatCon as in data_openml.py, SAINT's embedding step and transformer reduced to a
mean-pooled linear encoder, `mlpfory` a two-layer MLP; one batch of the training loop.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset, default_collate

class DataSetCatCon(Dataset):
    def __init__(self, X, Y, cat_cols, task="clf", continuous_mean_std=None):
        cat_cols = list(cat_cols)
        X_mask = X["mask"].copy()
        X = X["data"].copy()
        con_cols = list(set(np.arange(X.shape[1])) - set(cat_cols))
        self.X1 = X[:, cat_cols].copy().astype(np.int64)
        self.X2 = X[:, con_cols].copy().astype(np.float32)
        self.X1_mask = X_mask[:, cat_cols].copy().astype(np.int64)
        self.X2_mask = X_mask[:, con_cols].copy().astype(np.int64)
        if task == "clf":
            self.y = Y["data"]
        else:
            self.y = Y["data"].astype(np.float32)
        self.cls = np.zeros_like(self.y, dtype=np.int64)
        self.cls_mask = np.ones_like(self.y, dtype=np.int64)

    def __len__(self):
        return len(self.y)

    def __getitem__(self, idx):
        return (np.concatenate((self.cls[idx], self.X1[idx])), self.X2[idx], self.y[idx],
                np.concatenate((self.cls_mask[idx], self.X1_mask[idx])), self.X2_mask[idx])

class SAINT(nn.Module):
    """Stand-in: embeddings + a pooled linear 'transformer' + the mlpfory head."""
    def __init__(self, categories, num_continuous, dim=32, y_dim=3):
        super().__init__()
        self.embeds = nn.Embedding(sum(categories), dim)
        offsets = torch.tensor([0] + list(categories[:-1])).cumsum(0)
        self.register_buffer("categories_offset", offsets)
        self.cont_proj = nn.Linear(1, dim)
        self.transformer = nn.Linear(dim, dim)
        self.mlpfory = nn.Sequential(nn.Linear(dim, 100), nn.ReLU(), nn.Linear(100, y_dim))

def embed_data_mask(x_categ, x_cont, cat_mask, con_mask, model):
    x_categ = x_categ + model.categories_offset.type_as(x_categ)
    x_categ_enc = model.embeds(x_categ)
    x_cont_enc = model.cont_proj(x_cont.unsqueeze(-1))
    return x_categ, x_categ_enc, x_cont_enc

# label-encoded 3-class target; on Windows numpy's default int (and LabelEncoder's output) is int32
rng = np.random.default_rng(0)
n = 128
data = np.concatenate([rng.integers(0, 4, (n, 3)), rng.standard_normal((n, 5))], axis=1)
X_train = {"data": data, "mask": np.ones_like(data)}
y_train = {"data": rng.integers(0, 3, (n, 1)).astype(np.int32)}
train_ds = DataSetCatCon(X_train, y_train, cat_cols=[0, 1, 2], task="clf")
model = SAINT(categories=(1, 4, 4, 4), num_continuous=5)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
data = default_collate([train_ds[i] for i in range(32)])      # one batch of the trainloader
x_categ, x_cont, y_gts, cat_mask, con_mask = data[0], data[1], data[2], data[3], data[4]
'''
CELL = '''
optimizer.zero_grad()
_, x_categ_enc, x_cont_enc = embed_data_mask(x_categ, x_cont, cat_mask, con_mask, model)
reps = model.transformer(torch.cat([x_categ_enc, x_cont_enc], dim=1))
y_reps = reps[:, 0, :]
y_outs = model.mlpfory(y_reps)
loss = criterion(y_outs, y_gts.squeeze())
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("expected target dtype to be Long", "expected scalar type Long but found Int")
CULPRITS = ["y_gts"]
FIX = "namespace"
REFERENCE_FIX = '''
y_gts = y_gts.long()
'''
REFERENCE_EDIT = None
CLEAN = False
