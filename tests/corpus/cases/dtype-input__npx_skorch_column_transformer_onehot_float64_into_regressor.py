"""skorch regressor after a sklearn ColumnTransformer: OneHotEncoder output is float64, the module float32.

Source: https://github.com/skorch-dev/skorch/issues/414
The user built `ct = make_column_transformer((['a_column'], OneHotEncoder()), (['target'], 'drop'))`
and `pipe = make_pipeline(ct, net)` with a skorch regressor; `pipe.fit(df, df.target)` failed
with "Expected object of type torch.FloatTensor but found type torch.DoubleTensor for argument #4
'mat1'". sklearn transformers return float64 arrays; skorch turns them into tensors as they are.
The user's working version: `X = ct.fit_transform(df)` then
`net.fit(X.astype(np.float32), ...)` with the target cast to float32 too.
Stand-ins: a numpy one-hot column transformer and a NeuralNetRegressor doing `torch.as_tensor`.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

class ColumnTransformer:
    """Stand-in for make_column_transformer((['a_column'], OneHotEncoder()), (['target'], 'drop'))."""
    def fit_transform(self, df, y=None):
        self.categories_ = np.unique(df['a_column'])
        return (df['a_column'][:, None] == self.categories_[None, :]).astype(np.float64)

class NeuralNetRegressor:
    def __init__(self, module, max_epochs=1, lr=0.01):
        self.module_, self.max_epochs, self.lr = module, max_epochs, lr
        self.optimizer_ = torch.optim.SGD(self.module_.parameters(), lr=lr)
        self.criterion_ = nn.MSELoss()

    def fit(self, X, y):
        X, y = torch.as_tensor(X), torch.as_tensor(y)
        for epoch in range(self.max_epochs):
            self.optimizer_.zero_grad()
            loss = self.criterion_(self.module_(X), y)
            loss.backward()
            self.optimizer_.step()
        return self

df = {'a_column': np.random.choice(['a', 'b', 'c'], size=40),
      'target': np.random.rand(40)}
ct = ColumnTransformer()
net = NeuralNetRegressor(nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1)))
X = ct.fit_transform(df)
y = df['target'].reshape(-1, 1).astype(np.float32)
'''
CELL = '''
net.fit(X, y)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "Expected object of")
CULPRITS = ["X"]
FIX = "namespace"
REFERENCE_FIX = '''
X = X.astype(np.float32)
'''
REFERENCE_EDIT = None
CLEAN = False
