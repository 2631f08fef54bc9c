"""Tabular binary classifier (skorch-style): NumPy labels cast to int64 go into a BCE-with-logits loss.

Source: https://github.com/skorch-dev/skorch/issues/813
The user prepared `X_train_m = X_train.astype(np.float32)` and `y_train_m = y_train.astype(np.int64)`
for a one-output net (`layer_out = nn.Linear(l4, 1)`) trained as a binary classifier, and fitting
raised "result type Float can't be cast to the desired output type Long": the binary loss needs
float 0/1 targets. Fix: `y_train_m = y_train.astype(np.float32)`.
Stand-in: a minimal `fit` that turns the NumPy arrays into tensors batch by batch.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class MyModule(nn.Module):
    def __init__(self, n_in=20, hidden=32):
        super().__init__()
        self.layer_1 = nn.Linear(n_in, hidden)
        self.batchnorm1 = nn.BatchNorm1d(hidden)
        self.layer_out = nn.Linear(hidden, 1)

    def forward(self, inputs):
        x = self.batchnorm1(torch.relu(self.layer_1(inputs)))
        return self.layer_out(x).squeeze(-1)

def fit(module, X, y, epochs=1, batch_size=16, lr=1e-2):
    criterion = nn.BCEWithLogitsLoss()
    opt = torch.optim.Adam(module.parameters(), lr=lr)
    for _ in range(epochs):
        for i in range(0, len(X), batch_size):
            xb, yb = torch.as_tensor(X[i:i + batch_size]), torch.as_tensor(y[i:i + batch_size])
            opt.zero_grad()
            loss = criterion(module(xb), yb)
            loss.backward()
            opt.step()
    return module

rng = np.random.default_rng(0)
X_train = rng.normal(size=(64, 20))
y_train = (rng.random(64) > 0.5).astype(int)
X_train_m = X_train.astype(np.float32)
y_train_m = y_train.astype(np.int64)
net = MyModule()
'''
CELL = '''
fit(net, X_train_m, y_train_m)
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type Long"
CULPRITS = ["y_train_m"]
FIX = "namespace"
REFERENCE_FIX = '''
y_train_m = y_train_m.astype(np.float32)
'''
REFERENCE_EDIT = None
CLEAN = False
