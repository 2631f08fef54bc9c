"""Tabular model: three categorical columns go through nn.Sequential(Embedding, Embedding, Embedding).

Source: https://github.com/pytorch/pytorch/issues/116598
The user built `self.embedded_layer = nn.Sequential(nn.Embedding(4, 8), nn.Embedding(4, 8),
nn.Embedding(4, 8))` for three categorical features and made the inputs LongTensors, yet got
"Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int;
but got torch.FloatTensor": a Sequential feeds the first embedding's float output to the second
embedding as its indices. Each embedding must look up its own column.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch
from torch import nn

class incomemodel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedded_layer = nn.Sequential(
            nn.Embedding(num_embeddings=4, embedding_dim=8),
            nn.Embedding(num_embeddings=4, embedding_dim=8),
            nn.Embedding(num_embeddings=4, embedding_dim=8),
        )
        self.stacked_layer = nn.Sequential(nn.Linear(24, 32), nn.ReLU(), nn.Linear(32, 1))

    def forward(self, x):
        embedded = self.embedded_layer(x).reshape(x.shape[0], -1)
        return self.stacked_layer(embedded)

model = incomemodel()
x_batch = torch.randint(0, 4, (16, 3)).type(torch.int64)
y_batch = torch.randint(0, 2, (16,)).float()
loss_fn = nn.BCEWithLogitsLoss()
'''
CELL = '''
logits = model(x_batch).squeeze(-1)
loss = loss_fn(logits, y_batch)
'''
EXPECT_ERROR = "Expected tensor for argument #1 'indices' to have one of the following scalar types"
CULPRITS = ["model.embedded_layer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("embedded = self.embedded_layer(x).reshape(x.shape[0], -1)",
                  "embedded = torch.cat([emb(x[:, i]) for i, emb in enumerate(self.embedded_layer)], dim=1)")
CLEAN = False
