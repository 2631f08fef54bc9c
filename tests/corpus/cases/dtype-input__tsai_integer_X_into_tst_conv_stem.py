"""tsai TST classifier trained on an integer-valued X array: the int64 batches reach the float model.

Source: https://github.com/timeseriesAI/tsai/issues/292
With `batch_tfms=TSStandardize(by_var=True)` training failed with "Can only calculate the mean of
floating types. Got Long instead."; without it, `learn.fit_one_cycle` failed in the model with
"expected scalar type Long but found Float". The maintainer: X is int, TST only accepts float
data as X (y may be int for classification), so convert X to float before building the
dataloaders. Stand-in: TSDataLoaders / Learner reduced to a batch loop, TST to its Conv1d
projection + encoder layer + head (current PyTorch words the error "Input type (long int) and bias
type (float) should be the same").
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class TSDataLoader:
    def __init__(self, X, y, bs=64):
        self.X, self.y, self.bs = torch.as_tensor(X), torch.as_tensor(y), bs

    def __iter__(self):
        for i in range(0, len(self.X), self.bs):
            yield self.X[i:i + self.bs], self.y[i:i + self.bs]

class TSDataLoaders:
    def __init__(self, train, valid):
        self.train, self.valid = train, valid

    @classmethod
    def from_dsets(cls, X, y, splits, bs=64):
        tr, va = splits
        return cls(TSDataLoader(X[tr], y[tr], bs), TSDataLoader(X[va], y[va], bs))

class TST(nn.Module):
    def __init__(self, c_in, c_out, seq_len, d_model=32):
        super().__init__()
        self.W_P = nn.Conv1d(c_in, d_model, 1)
        self.encoder = nn.TransformerEncoderLayer(d_model, 4, 64, batch_first=True)
        self.head = nn.Linear(d_model * seq_len, c_out)

    def forward(self, x):
        u = self.W_P(x).transpose(1, 2)
        z = self.encoder(u)
        return self.head(z.flatten(1))

class Learner:
    def __init__(self, dls, model, loss_func=nn.CrossEntropyLoss()):
        self.dls, self.model, self.loss_func = dls, model, loss_func

    def fit_one_cycle(self, n_epoch, lr_max=1e-3):
        opt = torch.optim.Adam(self.model.parameters(), lr=lr_max)
        for _ in range(n_epoch):
            for xb, yb in self.dls.train:
                loss = self.loss_func(self.model(xb), yb)
                loss.backward()
                opt.step()
                opt.zero_grad()

X = np.random.randint(0, 100, size=(200, 3, 24))      # sensor counts, int64
y = np.random.randint(0, 4, size=200)
splits = (np.arange(160), np.arange(160, 200))
dls = TSDataLoaders.from_dsets(X, y, splits=splits, bs=64)
model = TST(dls.train.X.shape[1], 4, dls.train.X.shape[-1])
learn = Learner(dls, model)
'''
CELL = '''
learn.fit_one_cycle(1, lr_max=1e-3)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type Long but found Float")
CULPRITS = ["dls.train.X"]
FIX = "namespace"
REFERENCE_FIX = '''
dls.train.X = dls.train.X.float()
dls.valid.X = dls.valid.X.float()
'''
REFERENCE_EDIT = None
CLEAN = False
