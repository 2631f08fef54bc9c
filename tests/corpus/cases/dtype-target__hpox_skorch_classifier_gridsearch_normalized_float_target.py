"""skorch GridSearchCV pipeline: a regression target fed to NeuralNetClassifier, whose NLLLoss wants Long targets.

Source: https://github.com/skorch-dev/skorch/issues/824
The user adapted a skorch/sklearn GridSearchCV + Pipeline wrapper to their data and got a scalar
type RuntimeError from the loss inside `estimator.fit(X_train, y_train)`, asking how to "set the
dtype of the loss function". The maintainer: for classification the target should be `long` and
normalising it makes no sense; for regression use `NeuralNetRegressor`. The user confirmed it was
a regression problem and switching to NeuralNetRegressor solved the error.
Stand-ins: NeuralNetClassifier (NLLLoss on log-probabilities) / NeuralNetRegressor (MSELoss) with
skorch's fit path, a scaler+net pipeline. CPU: dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
from torch import nn

class MyModule(nn.Module):
    def __init__(self, n_in=12, num_units=16, n_out=1):
        super().__init__()
        self.dense0 = nn.Linear(n_in, num_units)
        self.dense1 = nn.Linear(num_units, n_out)

    def forward(self, X):
        return self.dense1(torch.relu(self.dense0(X)))

class _Net:
    criterion = None
    def __init__(self, module, max_epochs=5, lr=0.01):
        self.module, self.max_epochs, self.lr = module, max_epochs, lr
    def infer(self, Xt):
        return self.module_(Xt)
    def fit(self, X, y):
        self.module_ = self.module()
        opt = torch.optim.Adam(self.module_.parameters(), lr=self.lr)
        Xt, yt = torch.as_tensor(X), torch.as_tensor(y)
        for _ in range(self.max_epochs):
            opt.zero_grad()
            self.criterion()(self.infer(Xt), yt).backward()
            opt.step()
        return self

class NeuralNetClassifier(_Net):
    criterion = nn.NLLLoss
    def infer(self, Xt):
        return torch.log_softmax(self.module_(Xt), dim=-1)

class NeuralNetRegressor(_Net):
    criterion = nn.MSELoss
    def infer(self, Xt):
        return self.module_(Xt).squeeze(-1)

class StandardScalerPipeline:
    def __init__(self, net):
        self.net = net
    def fit(self, X, y):
        Xs = ((X - X.mean(0)) / X.std(0)).astype(np.float32)
        self.net.fit(Xs, y)
        return self

rng = np.random.RandomState(0)
X_train = rng.randn(200, 12).astype(np.float32)
y_raw = X_train[:, :3].sum(1) * 40.0 + 300.0                      # a continuous quantity
y_train = ((y_raw - y_raw.mean()) / y_raw.std()).astype(np.float32)   # normalised target
net = NeuralNetClassifier(MyModule, max_epochs=5, lr=0.01)
pipeline = StandardScalerPipeline(net)
'''
CELL = '''
pipeline.fit(X_train, y_train)
'''
EXPECT_ERROR = ("expected scalar type Long", "Long")
CULPRITS = ["y_train"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("net = NeuralNetClassifier(MyModule, max_epochs=5, lr=0.01)",
                  "net = NeuralNetRegressor(MyModule, max_epochs=5, lr=0.01)")
CLEAN = False
