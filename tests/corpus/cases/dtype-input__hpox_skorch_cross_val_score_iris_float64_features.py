"""skorch + `cross_val_score` on iris: `X` from `DataFrame.values` is float64, the module's weights are float32.

Source: https://github.com/skorch-dev/skorch/issues/518
The user loaded iris with pandas (`X = base.iloc[:, 0:4].values`), label-encoded `y` and ran
`cross_val_score(classifier_sklearn, X, y, cv=10, scoring='accuracy')` with a NeuralNetClassifier
wrapping a Linear/ReLU/LogSoftmax module; the first dense layer failed in addmm with a Double vs
Float mismatch. skorch does not change dtypes: the float64 array becomes a DoubleTensor. The fix the
thread settles on is `X = X.astype('float32')` (and int64 labels).
Stand-ins: skorch's fit/predict path and a minimal k-fold cross_val_score. CPU: dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class classifier_torch(nn.Module):
    def __init__(self):
        super().__init__()
        self.dense0 = nn.Linear(4, 4)
        self.activation0 = nn.ReLU()
        self.dense1 = nn.Linear(4, 4)
        self.activation1 = nn.ReLU()
        self.dense2 = nn.Linear(4, 3)
        self.output = nn.LogSoftmax(dim=1)

    def forward(self, X):
        X = self.activation0(self.dense0(X))
        X = self.activation1(self.dense1(X))
        return self.output(self.dense2(X))

class NeuralNetClassifier:
    def __init__(self, module, criterion=nn.NLLLoss, max_epochs=5, lr=0.01):
        self.module, self.criterion, self.max_epochs, self.lr = module, criterion, max_epochs, lr

    def fit(self, X, y):
        self.module_ = self.module()
        opt = torch.optim.Adam(self.module_.parameters(), lr=self.lr)
        Xt, yt = torch.as_tensor(X), torch.as_tensor(y)
        for _ in range(self.max_epochs):
            opt.zero_grad()
            self.criterion()(self.module_(Xt), yt).backward()
            opt.step()
        return self

    def predict(self, X):
        with torch.no_grad():
            return self.module_(torch.as_tensor(X)).argmax(1).numpy()

def cross_val_score(estimator, X, y, cv=10, scoring="accuracy"):
    folds = np.array_split(np.arange(len(X)), cv)
    scores = []
    for test in folds:
        train = np.setdiff1d(np.arange(len(X)), test)
        estimator.fit(X[train], y[train])
        scores.append((estimator.predict(X[test]) == y[test]).mean())
    return np.array(scores)

rng = np.random.RandomState(0)
X = rng.rand(150, 4) * 7.0                   # base.iloc[:, 0:4].values: float64
y = np.repeat(np.arange(3), 50).astype(np.int64)   # LabelEncoder().fit_transform(...)
classifier_sklearn = NeuralNetClassifier(classifier_torch, criterion=nn.NLLLoss, max_epochs=5)
'''
CELL = '''
results = cross_val_score(classifier_sklearn, X, y, cv=10, scoring="accuracy")
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "Double")
CULPRITS = ["X"]
FIX = "namespace"
REFERENCE_FIX = '''
X = X.astype("float32")
'''
REFERENCE_EDIT = None
CLEAN = False
