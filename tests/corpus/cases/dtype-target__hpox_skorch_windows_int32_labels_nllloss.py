"""skorch README example on Windows: `y` is int32, NLLLoss wants int64 targets.

Source: https://github.com/skorch-dev/skorch/issues/161
Running the unchanged README intro (`X, y = make_classification(...)`, `X = X.astype(np.float32)`,
`net.fit(X, y)`) in a Jupyter notebook on Windows 10 failed with "Expected object of type
Variable[torch.LongTensor] but found type Variable[torch.IntTensor] for argument #1 'target'". On
Windows numpy's default integer is int32, so the labels become an IntTensor; the answer is to
cast the labels, `y = y.astype(np.int64)`.
Stand-in: skorch's fit step (as_tensor + NLLLoss on the module's log-probabilities); the int32
labels are what numpy gives on Windows. CPU: dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
from torch import nn

class MyModule(nn.Module):
    def __init__(self, num_units=10, nonlin=nn.ReLU()):
        super().__init__()
        self.dense0 = nn.Linear(20, num_units)
        self.nonlin = nonlin
        self.dense1 = nn.Linear(num_units, 10)
        self.output = nn.Linear(10, 2)

    def forward(self, X):
        X = self.nonlin(self.dense0(X))
        X = self.nonlin(self.dense1(X))
        return torch.log_softmax(self.output(X), dim=-1)

class NeuralNetClassifier:
    def __init__(self, module, criterion=nn.NLLLoss, max_epochs=10, lr=0.1):
        self.module, self.criterion, self.max_epochs, self.lr = module, criterion, max_epochs, lr

    def fit(self, X, y):
        self.module_ = self.module()
        self.criterion_ = self.criterion()
        opt = torch.optim.SGD(self.module_.parameters(), lr=self.lr)
        Xt, yt = torch.as_tensor(X), torch.as_tensor(y)
        for epoch in range(self.max_epochs):
            opt.zero_grad()
            loss = self.criterion_(self.module_(Xt), yt)
            loss.backward()
            opt.step()
        return self

rng = np.random.RandomState(0)
X = rng.randn(1000, 20)
y = (X[:, :2].sum(1) > 0).astype(np.int32)       # numpy's default int on Windows
X = X.astype(np.float32)
net = NeuralNetClassifier(MyModule, max_epochs=10, lr=0.1)
'''
CELL = '''
net.fit(X, y)
'''
EXPECT_ERROR = ("expected scalar type Long", "Long", "not implemented for 'Int'")
CULPRITS = ["y"]
FIX = "namespace"
REFERENCE_FIX = '''
y = y.astype(np.int64)
'''
REFERENCE_EDIT = None
CLEAN = False
