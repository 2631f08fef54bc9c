"""skorch: `net.set_params(device='cpu')` after fitting on the GPU, then `net.predict(X)`: the module stays on cuda.

Source: https://github.com/skorch-dev/skorch/issues/553
The user trained skorch's basic_usage classifier with `device='cuda'`, then wanted to predict on the
CPU with `net.set_params(device='cpu')` and `y_pred = net.predict(X[:5])`, which failed with
"Expected object of device type cuda but got device type cpu for argument #2 'mat1'". Changing
`device` only changes where skorch puts the *data* (`to_tensor(X, device=self.device)`); the fitted
`module_` is still on the GPU. The maintainer's answer moves the fitted module itself
(`net.module_.to('cpu')`, or a deep copy of it).
Stand-in: a NeuralNetClassifier with skorch's initialize/predict data path (fit reduced to moving
the initialised module to `device`: no training steps on the simulated GPU).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
from torch import nn

class ClassifierModule(nn.Module):
    def __init__(self, num_units=10, nonlin=nn.ReLU(), dropout=0.5):
        super().__init__()
        self.dense0 = nn.Linear(20, num_units)
        self.nonlin = nonlin
        self.dropout = nn.Dropout(dropout)
        self.dense1 = nn.Linear(num_units, 10)
        self.output = nn.Linear(10, 2)

    def forward(self, X):
        X = self.nonlin(self.dense0(X))
        X = self.dropout(X)
        X = self.nonlin(self.dense1(X))
        return torch.softmax(self.output(X), dim=-1)

class NeuralNetClassifier:
    def __init__(self, module, max_epochs=10, lr=0.1, device="cpu"):
        self.module, self.max_epochs, self.lr, self.device = module, max_epochs, lr, device

    def set_params(self, **params):
        for k, v in params.items():
            setattr(self, k, v)
        return self

    def fit(self, X, y):
        self.module_ = self.module().to(self.device)
        return self

    def predict_proba(self, X):
        self.module_.eval()
        Xt = torch.as_tensor(X).to(self.device)
        return self.module_(Xt)

    def predict(self, X):
        return self.predict_proba(X).argmax(-1)

rng = np.random.RandomState(0)
X = rng.randn(100, 20).astype(np.float32)
y = (X[:, 0] > 0).astype(np.int64)
net = NeuralNetClassifier(ClassifierModule, max_epochs=10, lr=0.1, device="cuda:0")
net.fit(X, y)
net.set_params(device="cpu")      # predict on the CPU
'''
CELL = '''
y_pred = net.predict(X[:5])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["net.module_"]
FIX = "namespace"
REFERENCE_FIX = '''
net.module_.to("cpu")
'''
REFERENCE_EDIT = None
CLEAN = False
