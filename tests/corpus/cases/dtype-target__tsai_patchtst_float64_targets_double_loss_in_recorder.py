"""tsai PatchTST multivariate forecasting with L1Loss: float64 targets make a Double loss that the Recorder's smoother rejects.

Source: https://github.com/timeseriesAI/tsai/issues/883
Training PatchTST with `loss_func=nn.L1Loss()` failed in `Recorder.after_batch` ->
`AvgSmoothLoss.accumulate` with "expected dtype double for `end` but got dtype float" at
`torch.lerp(to_detach(learn.loss.mean()), self.val, self.beta)`: the forecast targets were built
from a float64 NumPy array, so L1Loss between the float32 predictions and the double targets
returned a float64 loss, while the smoother's running value is float32. Stand-in: tsai's
dataloaders/Learner reduced to a batch loop with the Recorder's AvgSmoothLoss and a small
PatchTST-like head.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
from torch import nn

class TSDataLoader:
    def __init__(self, X, y, bs=32):
        self.X, self.y, self.bs = torch.as_tensor(X), torch.as_tensor(y), bs

    def __iter__(self):
        for i in range(0, len(self.X), self.bs):
            yield self.X[i:i + self.bs], self.y[i:i + self.bs]

class TSDataLoaders:
    def __init__(self, train, valid):
        self.train, self.valid = train, valid

class PatchTST(nn.Module):
    def __init__(self, c_in, c_out, seq_len, pred_dim, patch_len=8, d_model=32):
        super().__init__()
        self.patch_len = patch_len
        self.W_P = nn.Linear(patch_len, d_model)
        self.encoder = nn.TransformerEncoderLayer(d_model, 4, 64, batch_first=True)
        self.head = nn.Linear(d_model * (seq_len // patch_len), pred_dim)

    def forward(self, x):
        b, c, l = x.shape
        u = self.W_P(x.reshape(b * c, l // self.patch_len, self.patch_len))
        z = self.encoder(u).reshape(b, c, -1)
        return self.head(z)

class AvgSmoothLoss:
    def __init__(self, beta=0.98):
        self.beta = beta

    def reset(self):
        self.count, self.val = 0, torch.tensor(0.)

    def accumulate(self, learn):
        self.count += 1
        self.val = torch.lerp(learn.loss.mean().detach(), self.val, self.beta)

class Learner:
    def __init__(self, dls, model, loss_func):
        self.dls, self.model, self.loss_func = dls, model, loss_func
        self.smooth_loss = AvgSmoothLoss()

    def fit_one_cycle(self, n_epoch, lr_max=1e-3):
        opt = torch.optim.Adam(self.model.parameters(), lr=lr_max)
        self.smooth_loss.reset()
        for _ in range(n_epoch):
            for xb, yb in self.dls.train:
                self.pred = self.model(xb)
                self.loss = self.loss_func(self.pred, yb)
                self.loss.backward()
                opt.step()
                opt.zero_grad()
                self.smooth_loss.accumulate(self)      # Recorder.after_batch

ts = np.random.randn(400, 3)                             # df[["a", "b", "c"]].values, float64
X = np.stack([ts[i:i + 48].T for i in range(300)]).astype(np.float32)
y = np.stack([ts[i + 48:i + 60].T for i in range(300)])   # targets left as float64
dls = TSDataLoaders(TSDataLoader(X[:240], y[:240]), TSDataLoader(X[240:], y[240:]))
model = PatchTST(c_in=3, c_out=3, seq_len=48, pred_dim=12)
learn = Learner(dls, model, loss_func=nn.L1Loss())
'''
CELL = '''
learn.fit_one_cycle(1, lr_max=1e-3)
'''
EXPECT_ERROR = "expected dtype double for `end` but got dtype float"
CULPRITS = ["dls.train.y"]
FIX = "namespace"
REFERENCE_FIX = '''
dls.train.y = dls.train.y.float()
dls.valid.y = dls.valid.y.float()
'''
REFERENCE_EDIT = None
CLEAN = False
