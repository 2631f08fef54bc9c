"""poutyne README example on Windows: np.random.randint labels are int32, so cross_entropy rejects the target.

Source: https://github.com/freud14/poutyne/pull/20
The README's basic example builds `train_y = np.random.randint(num_classes, size=num_train_samples)`
and calls `model.fit(train_x, train_y, ...)` with the 'cross_entropy' loss. On Windows NumPy's
default integer is int32, the arrays become IntTensors, and cross entropy expects a LongTensor.
The fix (this PR): create the label arrays as int64 (`.astype('int64')`).
Stand-in: a minimal poutyne.Model whose fit converts the numpy arrays with torch.from_numpy;
np.int32 is written out explicitly to reproduce the Windows default on any OS.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

num_features = 20
num_classes = 5
num_train_samples = 64
train_x = np.random.randn(num_train_samples, num_features).astype('float32')
train_y = np.random.randint(num_classes, size=num_train_samples).astype(np.int32)  # Windows default int

network = nn.Linear(num_features, num_classes)

class Model:
    """Stand-in for poutyne.Model(network, 'sgd', 'cross_entropy')."""
    def __init__(self, network, optimizer, loss_function):
        self.network = network
        self.optimizer = torch.optim.SGD(network.parameters(), lr=0.1)
        self.loss_function = F.cross_entropy

    def fit(self, x, y, epochs=1, batch_size=32):
        for epoch in range(epochs):
            for i in range(0, len(x), batch_size):
                xb = torch.from_numpy(x[i:i + batch_size])
                yb = torch.from_numpy(y[i:i + batch_size])
                self.optimizer.zero_grad()
                loss = self.loss_function(self.network(xb), yb)
                loss.backward()
                self.optimizer.step()

model = Model(network, 'sgd', 'cross_entropy')
'''
CELL = '''
model.fit(train_x, train_y, epochs=1, batch_size=32)
'''
EXPECT_ERROR = ("expected target dtype", "expected scalar type Long")
CULPRITS = ["train_y"]
FIX = "namespace"
REFERENCE_FIX = '''
train_y = train_y.astype('int64')
'''
REFERENCE_EDIT = None
CLEAN = False
