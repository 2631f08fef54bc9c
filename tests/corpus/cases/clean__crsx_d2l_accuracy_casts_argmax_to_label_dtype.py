"""d2l `accuracy`: float32 logits are arg-maxed and cast to the int64 label dtype before comparing.

Source: https://github.com/d2l-ai/d2l-en/blob/master/d2l/torch.py
Dive into Deep Learning's `accuracy(y_hat, y)` takes float32 network outputs and int64 labels,
reduces the outputs with `argmax(axis=1)`, converts them with `y_hat.type(y.dtype)` and sums the
boolean comparison after `cmp.type(y.dtype)`; `evaluate_accuracy` accumulates it with `y.numel()`
in the book's `Accumulator`. Look-alike: mixed float/int64/bool tensors by design, no dtype error.
Stand-in: the softmax-regression `net` of chapter 3 on random Fashion-MNIST-shaped batches.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Accumulator:
    """For accumulating sums over `n` variables."""
    def __init__(self, n):
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def __getitem__(self, idx):
        return self.data[idx]

def accuracy(y_hat, y):
    """Compute the number of correct predictions."""
    if len(y_hat.shape) > 1 and y_hat.shape[1] > 1:
        y_hat = y_hat.argmax(axis=1)
    cmp = y_hat.type(y.dtype) == y
    return float(cmp.type(y.dtype).sum())

def evaluate_accuracy(net, data_iter):
    """Compute the accuracy for a model on a dataset."""
    if isinstance(net, torch.nn.Module):
        net.eval()
    metric = Accumulator(2)
    with torch.no_grad():
        for X, y in data_iter:
            metric.add(accuracy(net(X), y), y.numel())
    return metric[0] / metric[1]

net = nn.Sequential(nn.Flatten(), nn.Linear(784, 10))
test_iter = [(torch.rand(32, 1, 28, 28), torch.randint(0, 10, (32,))) for _ in range(3)]
'''
CELL = '''
acc = evaluate_accuracy(net, test_iter)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
