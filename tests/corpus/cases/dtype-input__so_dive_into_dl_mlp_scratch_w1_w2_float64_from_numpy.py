"""Dive-into-DL-PyTorch 3.9 MLP from scratch: W1/W2 drawn with np.random.normal are float64.

Source: https://github.com/ShusenTang/Dive-into-DL-PyTorch/issues/156
"3.9.4节W1和W2的类型问题" (the dtype of W1 and W2 in 3.9.4): training the from-scratch MLP with
`d2l.train_ch3(net, train_iter, test_iter, loss, num_epochs, batch_size, params, lr)` failed in
`net` at `torch.matmul(X, W1)` with "Expected object of scalar type Float but got scalar type
Double for argument #2 'mat2'": the parameters are made with `torch.tensor(np.random.normal(...))`,
which keeps NumPy's float64, while the Fashion-MNIST batches are float32. Stand-in: the notebook's
parameters, `relu`, `net`, `sgd` and `train_ch3`, with random 28x28 images in place of
Fashion-MNIST.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch.utils.data import TensorDataset, DataLoader

batch_size = 64
images = torch.rand(256, 1, 28, 28)
targets = torch.randint(0, 10, (256,))
train_iter = DataLoader(TensorDataset(images, targets), batch_size=batch_size, shuffle=True)
test_iter = DataLoader(TensorDataset(images[:64], targets[:64]), batch_size=batch_size)

num_inputs, num_outputs, num_hiddens = 784, 10, 256
W1 = torch.tensor(np.random.normal(0, 0.01, (num_inputs, num_hiddens)))
b1 = torch.zeros(num_hiddens, dtype=torch.float)
W2 = torch.tensor(np.random.normal(0, 0.01, (num_hiddens, num_outputs)))
b2 = torch.zeros(num_outputs, dtype=torch.float)
params = [W1, b1, W2, b2]
for param in params:
    param.requires_grad_(requires_grad=True)

def relu(X):
    return torch.max(input=X, other=torch.tensor(0.0))

def net(X):
    X = X.view((-1, num_inputs))
    H = relu(torch.matmul(X, W1) + b1)
    return torch.matmul(H, W2) + b2

loss = torch.nn.CrossEntropyLoss()

class d2l:      # stand-in for `import d2lzh_pytorch as d2l`
    @staticmethod
    def sgd(params, lr, batch_size):
        for param in params:
            param.data -= lr * param.grad / batch_size

    @staticmethod
    def evaluate_accuracy(data_iter, net):
        acc_sum, n = 0.0, 0
        for X, y in data_iter:
            acc_sum += (net(X).argmax(dim=1) == y).float().sum().item()
            n += y.shape[0]
        return acc_sum / n

    @staticmethod
    def train_ch3(net, train_iter, test_iter, loss, num_epochs, batch_size, params=None, lr=None, optimizer=None):
        for epoch in range(num_epochs):
            train_l_sum, train_acc_sum, n = 0.0, 0.0, 0
            for X, y in train_iter:
                y_hat = net(X)
                l = loss(y_hat, y).sum()
                if params is not None and params[0].grad is not None:
                    for param in params:
                        param.grad.data.zero_()
                l.backward()
                d2l.sgd(params, lr, batch_size)
                train_l_sum += l.item()
                train_acc_sum += (y_hat.argmax(dim=1) == y).sum().item()
                n += y.shape[0]
            test_acc = d2l.evaluate_accuracy(test_iter, net)
'''
CELL = '''
num_epochs, lr = 1, 100.0
d2l.train_ch3(net, train_iter, test_iter, loss, num_epochs, batch_size, params, lr)
'''
EXPECT_ERROR = ("expected m1 and m2 to have the same dtype",
                "mat1 and mat2 must have the same dtype",
                "expected scalar type")
CULPRITS = ["W1", "W2"]
FIX = "namespace"
REFERENCE_FIX = '''
W1.data = W1.data.float()
W2.data = W2.data.float()
'''
REFERENCE_EDIT = None
CLEAN = False
