"""Dive-into-DL linear regression from scratch: features from `np.random.normal` are float64, the weights float32.

Source: https://github.com/OUCMachineLearning/OUCML/issues/24
"3.2.1 RuntimeError: expected scalar type Double but found Float" with `torch.mm` in chapter 3.2.1: the
synthetic features are built with `torch.from_numpy(np.random.normal(0, 1, (num_examples, num_inputs)))`,
which keeps numpy's float64, while `w` is created with `dtype=torch.float32`; `linreg` multiplies them.
Fixed by `.to(torch.float32)` on the features. Code as in the chapter (data_iter, linreg, squared_loss,
sgd), first minibatch of the training loop.
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
batch_size = 10
net = linreg
loss = squared_loss
'''
CELL = '''
for X, y in data_iter(batch_size, features, labels):
    l = loss(net(X, w, b), y).sum()
    l.backward()
    sgd([w, b], lr, batch_size)
    w.grad.data.zero_()
    b.grad.data.zero_()
    break
'''
EXPECT_ERROR = ("expected m1 and m2 to have the same dtype", "expected scalar type Double but found Float",
                "must have the same dtype")
CULPRITS = ["features"]
FIX = "namespace"
REFERENCE_FIX = '''
features = features.to(torch.float32)
labels = labels.to(torch.float32)
'''
REFERENCE_EDIT = None
CLEAN = False
