"""skorch Basic Usage notebook run locally: `net.fit(X, y)` fails because the `make_classification` labels are int32, not int64.

Source: https://github.com/skorch-dev/skorch/issues/554
Following the Basic_Usage notebook (`X, y = make_classification(1000, 20, n_informative=10,
random_state=0)`, `X = X.astype(np.float32)`, `net = NeuralNetClassifier(ClassifierModule, ...)`,
`net.fit(X, y)`) in a local Jupyter environment failed at cell 10 with "Expected object of scalar
type Long but got scalar type Int for argument #2 'target'"; on Colab it ran. The maintainers asked
for the dtype of `y` and to cast it to int64 if it is not (numpy's default integer there is 32 bit).
Stand-in: skorch's NeuralNetClassifier reduced to `fit` (as_tensor on X and y, one pass of minibatches,
NLLLoss on the log of the module's probabilities as `get_loss` does); the labels are int32 as numpy
gives them on that machine. CPU: dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

def make_classification(n_samples, n_features, n_informative, random_state):
    """Stand-in for sklearn.datasets.make_classification (two classes, default int labels)."""
    rng = np.random.RandomState(random_state)
    X = rng.standard_normal((n_samples, n_features))
    w = np.zeros(n_features)
    w[:n_informative] = rng.standard_normal(n_informative)
    y = (X @ w > 0).astype(np.int32)           # numpy's default integer on the user's machine
    return X, y

class NeuralNetClassifier:
    """Stand-in for skorch.NeuralNetClassifier: fit = minibatch passes with NLLLoss."""
    def __init__(self, module, max_epochs=10, lr=0.1, batch_size=128, criterion=nn.NLLLoss):
        self.module, self.max_epochs, self.lr, self.batch_size = module, max_epochs, lr, batch_size
        self.criterion = criterion

    def initialize(self):
        self.module_ = self.module()
        self.criterion_ = self.criterion()
        self.optimizer_ = torch.optim.SGD(self.module_.parameters(), lr=self.lr)
        return self

    def get_loss(self, y_pred, y_true):
        eps = torch.finfo(y_pred.dtype).eps
        return self.criterion_(torch.log(y_pred + eps), y_true)

    def fit(self, X, y):
        self.initialize()
        X, y = torch.as_tensor(X), torch.as_tensor(y)
        for epoch in range(self.max_epochs):
            for i in range(0, len(X), self.batch_size):
                Xi, yi = X[i:i + self.batch_size], y[i:i + self.batch_size]
                self.optimizer_.zero_grad()
                loss = self.get_loss(self.module_(Xi), yi)
                loss.backward()
                self.optimizer_.step()
        return self

X, y = make_classification(1000, 20, n_informative=10, random_state=0)
X = X.astype(np.float32)

class ClassifierModule(nn.Module):
    def __init__(self, num_units=10, nonlin=F.relu, dropout=0.5):
        super().__init__()
        self.num_units = num_units
        self.nonlin = nonlin
        self.dropout = dropout
        self.dense0 = nn.Linear(20, num_units)
        self.dropout = nn.Dropout(dropout)
        self.dense1 = nn.Linear(num_units, 10)
        self.output = nn.Linear(10, 2)

    def forward(self, X, **kwargs):
        X = self.nonlin(self.dense0(X))
        X = self.dropout(X)
        X = F.relu(self.dense1(X))
        X = F.softmax(self.output(X), dim=-1)
        return X

net = NeuralNetClassifier(ClassifierModule, max_epochs=2, lr=0.1)
'''
CELL = '''
net.fit(X, y)
'''
EXPECT_ERROR = ("expected target dtype to be Long", "expected scalar type Long but found Int")
CULPRITS = ["y"]
FIX = "namespace"
REFERENCE_FIX = '''
y = y.astype(np.int64)
'''
REFERENCE_EDIT = None
CLEAN = False
