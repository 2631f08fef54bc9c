"""skorch NeuralNetClassifier(device='cuda'): numpy `X` is moved per batch and predictions come back on the CPU.

Source: https://github.com/skorch-dev/skorch/blob/master/skorch/net.py
skorch's `evaluation_step` does `Xi = to_tensor(Xi, device=self.device)` before `self.infer(Xi)`,
and `forward_iter` yields `to_device(yp, device=device)` with `device='cpu'` by default, so
`predict_proba` returns CPU tensors/arrays even when the module lives on the GPU. The user's
`y_pred == y_test` comparison therefore mixes nothing. Look-alike: a CUDA module, CPU inputs and
CPU outputs, all moved by the wrapper; it runs.
Stand-in: skorch's to_tensor/to_device and the forward_iter/predict_proba path.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

def to_tensor(X, device):
    return torch.as_tensor(X).to(device)

def to_device(X, device):
    return X.to(device)

class ClassifierModule(nn.Module):
    def __init__(self, num_units=10):
        super().__init__()
        self.dense0 = nn.Linear(20, num_units)
        self.output = nn.Linear(num_units, 2)

    def forward(self, X):
        return torch.softmax(self.output(torch.relu(self.dense0(X))), dim=-1)

class NeuralNetClassifier:
    def __init__(self, module, device="cpu", batch_size=16):
        self.module, self.device, self.batch_size = module, device, batch_size

    def initialize(self):
        self.module_ = self.module().to(self.device)
        return self

    def evaluation_step(self, Xi):
        with torch.no_grad():
            Xi = to_tensor(Xi, device=self.device)
            self.module_.eval()
            return self.module_(Xi)

    def forward_iter(self, X, device="cpu"):
        for start in range(0, len(X), self.batch_size):
            yp = self.evaluation_step(X[start:start + self.batch_size])
            yield to_device(yp, device=device)

    def predict_proba(self, X):
        return torch.cat(list(self.forward_iter(X)), dim=0)

rng = np.random.RandomState(0)
X_test = rng.randn(40, 20).astype(np.float32)
y_test = torch.as_tensor((X_test[:, 0] > 0).astype(np.int64))
net = NeuralNetClassifier(ClassifierModule, device="cuda:0").initialize()
'''
CELL = '''
y_proba = net.predict_proba(X_test)
y_pred = y_proba.argmax(1)
accuracy = (y_pred == y_test).float().mean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
