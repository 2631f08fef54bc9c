"""Linear regression from scratch: features built with np.random.normal are float64, the weights float32.

Source: https://github.com/ShusenTang/Dive-into-DL-PyTorch/issues/31
Running section 3.2.7, `l = loss(net(X, w, b), y).sum()` failed in `linreg` (`torch.mm(X, w) + b`)
with "Expected object of scalar type Double but got scalar type Float for argument #2 'mat2'".
`features = torch.from_numpy(np.random.normal(0, 1, (num_examples, num_inputs)))` keeps numpy's
float64, while `w` and `b` were made as float32 tensors. The reply converts `features` (and the
noise added to `labels`) to float32 with `.to(torch.float32)`.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import random
import numpy as np
import torch

num_inputs = 2
num_examples = 1000
true_w = [2, -3.4]
true_b = 4.2
features = torch.from_numpy(np.random.normal(0, 1, (num_examples, num_inputs)))
labels = true_w[0] * features[:, 0] + true_w[1] * features[:, 1] + true_b
labels += torch.from_numpy(np.random.normal(0, 0.01, size=labels.size()))

def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    random.shuffle(indices)
    for i in range(0, num_examples, batch_size):
        j = torch.LongTensor(indices[i: min(i + batch_size, num_examples)])
        yield features.index_select(0, j), labels.index_select(0, j)

w = torch.tensor(np.random.normal(0, 0.01, (num_inputs, 1)), dtype=torch.float32)
b = torch.zeros(1, dtype=torch.float32)
w.requires_grad_(requires_grad=True)
b.requires_grad_(requires_grad=True)

def linreg(X, w, b):
    return torch.mm(X, w) + b

def squared_loss(y_hat, y):
    return (y_hat - y.view(y_hat.size())) ** 2 / 2

def sgd(params, lr, batch_size):
    for param in params:
        param.data -= lr * param.grad / batch_size

lr = 0.03
num_epochs = 1
net = linreg
loss = squared_loss
batch_size = 10
'''
CELL = '''
for epoch in range(num_epochs):
    for X, y in data_iter(batch_size, features, labels):
        l = loss(net(X, w, b), y).sum()
        l.backward()
        sgd([w, b], lr, batch_size)
        w.grad.data.zero_()
        b.grad.data.zero_()
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "Expected object of scalar type")
CULPRITS = ["features"]
FIX = "namespace"
REFERENCE_FIX = '''
features = features.to(torch.float32)
labels = labels.to(torch.float32)
'''
REFERENCE_EDIT = None
CLEAN = False
