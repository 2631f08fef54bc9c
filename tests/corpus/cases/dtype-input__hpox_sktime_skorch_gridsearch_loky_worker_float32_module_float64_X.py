"""sktime ForecastingGridSearchCV(backend="loky") over a skorch NeuralNetRegressor: float64 data meets float32 weights in the workers.

Source: https://github.com/sktime/sktime/issues/5048
The user worked around skorch's "Expected object of scalar type Double but got scalar type Float for
argument #2 'weight'" with `torch.set_default_dtype(torch.float64)`; it worked with the default
backend but not with `backend="loky"`: the loky worker processes start fresh, with torch's default
float32, so the module is built with float32 weights while `X`/`y` (pandas data, float64) stay
float64. Resolution in the thread: drop `set_default_dtype` and load `X` and `y` as `np.float32`.
Stand-ins: the grid search's fit-in-a-fresh-worker step (default dtype float32 there), skorch's
NeuralNetRegressor fit path and the uschange-shaped data. CPU: dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class MLP(nn.Module):
    def __init__(self, n_in=4, hidden=16):
        super().__init__()
        self.fc1 = nn.Linear(n_in, hidden)
        self.fc2 = nn.Linear(hidden, 1)

    def forward(self, X):
        return self.fc2(torch.relu(self.fc1(X)))

class NeuralNetRegressor:
    def __init__(self, module, max_epochs=5, lr=0.01):
        self.module, self.max_epochs, self.lr = module, max_epochs, lr
    def fit(self, X, y):
        self.module_ = self.module()
        opt = torch.optim.Adam(self.module_.parameters(), lr=self.lr)
        Xt, yt = torch.as_tensor(X), torch.as_tensor(y)
        for _ in range(self.max_epochs):
            opt.zero_grad()
            nn.functional.mse_loss(self.module_(Xt), yt).backward()
            opt.step()
        return self

class ForecastingGridSearchCV:
    """fits each candidate in a fresh loky worker: torch's default dtype there is float32"""
    def __init__(self, forecaster, param_grid, backend="loky"):
        self.forecaster, self.param_grid, self.backend = forecaster, param_grid, backend
    def fit(self, y, X):
        for lr in self.param_grid["lr"]:
            self.forecaster.lr = lr
            previous = torch.get_default_dtype()
            torch.set_default_dtype(torch.float32)          # a new worker process
            try:
                self.forecaster.fit(X, y)
            finally:
                torch.set_default_dtype(previous)
        return self

rng = np.random.RandomState(0)
X = rng.randn(187, 4)                    # load_uschange: float64 columns
y = rng.randn(187, 1)
net = NeuralNetRegressor(MLP, max_epochs=5)
gscv = ForecastingGridSearchCV(net, param_grid={"lr": [0.01, 0.001]}, backend="loky")
'''
CELL = '''
gscv.fit(y, X=X)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "Double")
CULPRITS = ["X"]
FIX = "namespace"
REFERENCE_FIX = '''
X = X.astype(np.float32)
y = y.astype(np.float32)
'''
REFERENCE_EDIT = None
CLEAN = False
