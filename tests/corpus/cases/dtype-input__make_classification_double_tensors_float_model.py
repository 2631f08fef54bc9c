"""Logistic regression on sklearn's make_classification: the user cast X and y to double, the model is float.

Source: https://github.com/pytorch/pytorch/issues/15436
"Type Conversions": `X_train = Variable(torch.from_numpy(X_train)).double()`,
`y_train = ... .double()`, a `SingleLayeredNetwork` of `nn.Linear` layers and `nn.CrossEntropyLoss()`
raised "Expected object of scalar type Double but got scalar type Float for argument #2 'mat2'":
"I've tried to convert both my X and y variables to double but it still seems to think it's float".
The weights are float32; the inputs must be float32 and the class targets int64.
Stand-in: make_classification replaced by a NumPy draw of the same shapes and dtypes.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(0)
X = rng.normal(size=(600, 10))                       # make_classification: float64 features
y = (X[:, 0] + X[:, 1] > 0).astype(np.int64)          # and int64 labels
X_train, y_train = torch.from_numpy(X[:450]).double(), torch.from_numpy(y[:450]).double()

class SingleLayeredNetwork(nn.Module):
    def __init__(self, input_dimension, output_dimension):
        super().__init__()
        self.linear = nn.Linear(input_dimension, output_dimension)

    def forward(self, x):
        return self.linear(x)

model = SingleLayeredNetwork(10, 2)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.001)
batch_size = 100
'''
CELL = '''
for i in range(0, len(X_train), batch_size):
    inputs, labels = X_train[i:i + batch_size], y_train[i:i + batch_size]
    optimizer.zero_grad()
    outputs = model(inputs)
    loss = criterion(outputs, labels)
    loss.backward()
    optimizer.step()
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["X_train", "y_train"]
FIX = "namespace"
REFERENCE_FIX = '''
X_train = X_train.float()
y_train = y_train.long()
'''
REFERENCE_EDIT = None
CLEAN = False
