"""Look-alike: RobustBench's `normalize_model` registers CPU mean/std buffers, the wrapped model is moved as a whole, and `clean_accuracy` moves each CPU test slice.

Source: https://github.com/RobustBench/robustbench/blob/master/robustbench/model_zoo/architectures/utils_architectures.py
`ImageNormalizer` stores `torch.as_tensor(mean).view(1, 3, 1, 1)` and the std with
`register_buffer`, and `normalize_model` puts it first in an `nn.Sequential`; `load_model` returns
that model on the CPU and the user calls `.to(device)`, which carries the buffers along. The
evaluation data from `load_cifar10` stays on the CPU: `robustbench.utils.clean_accuracy` slices
`x`/`y` per batch and sends each slice to `device`. Stand-in: `ImageNormalizer`,
`normalize_model`, `clean_accuracy` (returning the accuracy tensor: the simulator cannot read a
value with `.item()`), a small MLP for the robust WideResNet.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
from collections import OrderedDict
import torch
import torch.nn as nn

class ImageNormalizer(nn.Module):
    def __init__(self, mean, std):
        super(ImageNormalizer, self).__init__()
        self.register_buffer("mean", torch.as_tensor(mean).view(1, 3, 1, 1))
        self.register_buffer("std", torch.as_tensor(std).view(1, 3, 1, 1))

    def forward(self, input):
        return (input - self.mean) / self.std

def normalize_model(model, mean, std):
    layers = OrderedDict([("normalize", ImageNormalizer(mean, std)), ("model", model)])
    return nn.Sequential(layers)

def clean_accuracy(model, x, y, batch_size=100, device=None):
    if device is None:
        device = x.device
    acc = 0.
    n_batches = math.ceil(x.shape[0] / batch_size)
    with torch.no_grad():
        for counter in range(n_batches):
            x_curr = x[counter * batch_size:(counter + 1) * batch_size].to(device)
            y_curr = y[counter * batch_size:(counter + 1) * batch_size].to(device)
            output = model(x_curr)
            acc += (output.max(1)[1] == y_curr).float().sum()
    return acc / x.shape[0]          # acc.item() / x.shape[0]

CIFAR_MEAN, CIFAR_STD = (0.4914, 0.4822, 0.4465), (0.2471, 0.2435, 0.2616)
net = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 128), nn.ReLU(), nn.Linear(128, 10))
model = normalize_model(net, CIFAR_MEAN, CIFAR_STD)      # load_model(...) returns it on the CPU
device = torch.device("cuda:0")
model = model.to(device).eval()
x_test, y_test = torch.rand(250, 3, 32, 32), torch.randint(0, 10, (250,))   # load_cifar10(n_examples=250)
'''
CELL = '''
acc = clean_accuracy(model, x_test, y_test, batch_size=100, device=device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
