"""RobustBench DMPreActResNet evaluated on cuda:3: the forward pass caches its normalization constants with `.cuda()`, i.e. on cuda:0.

Source: https://github.com/RobustBench/robustbench/issues/58
"Multi GPU error on DMPreActResNet": `self.mean_cuda = self.mean.cuda()` / `self.std_cuda =
self.std.cuda()` in `DMPreActResNet.forward` "force to put the two tensor on cuda:0. So in case of
multiple GPU, I have got an error like this: RuntimeError: Expected all tensors to be on the same
device, but found at least two devices, cuda:3 and cuda:0!" (fixed by #61 with registered buffers).
The model itself and every batch are on cuda:3; the CPU `mean`/`std` attributes are copied lazily to
the current device on the first CUDA forward. Stand-in: the model zoo's DMPreActResNet-18 (DeepMind
architecture, no checkpoint), random CIFAR-10 tensors for `load_cifar10`, RobustBench's
`clean_accuracy` returning the tensor; `.cuda()` is written `.cuda("cuda:0")`, the current GPU it
resolves to (the simulator has no current device).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from typing import Tuple, Union
import torch
import torch.nn as nn
import torch.nn.functional as F

CIFAR10_MEAN = (0.4914, 0.4822, 0.4465)
CIFAR10_STD = (0.2471, 0.2435, 0.2616)

class _PreActBlock(nn.Module):
    def __init__(self, in_planes, out_planes, stride, activation_fn=nn.ReLU):
        super().__init__()
        self._stride = stride
        self.batchnorm_0 = nn.BatchNorm2d(in_planes)
        self.relu_0 = activation_fn()
        self.conv_2d_1 = nn.Conv2d(in_planes, out_planes, kernel_size=3, stride=stride, padding=0, bias=False)
        self.batchnorm_1 = nn.BatchNorm2d(out_planes)
        self.relu_1 = activation_fn()
        self.conv_2d_2 = nn.Conv2d(out_planes, out_planes, kernel_size=3, stride=1, padding=1, bias=False)
        self.has_shortcut = stride != 1 or in_planes != out_planes
        if self.has_shortcut:
            self.shortcut = nn.Conv2d(in_planes, out_planes, kernel_size=3, stride=stride, padding=0, bias=False)

    def _pad(self, x):
        if self._stride == 1:
            x = F.pad(x, (1, 1, 1, 1))
        elif self._stride == 2:
            x = F.pad(x, (0, 1, 0, 1))
        else:
            raise ValueError("Unsupported `stride`.")
        return x

    def forward(self, x):
        out = self.relu_0(self.batchnorm_0(x))
        shortcut = self.shortcut(self._pad(x)) if self.has_shortcut else x
        out = self.conv_2d_1(self._pad(out))
        out = self.conv_2d_2(self.relu_1(self.batchnorm_1(out)))
        return out + shortcut

class DMPreActResNet(nn.Module):
    def __init__(self, num_classes: int = 10, depth: int = 18, width: int = 0, activation_fn: nn.Module = nn.ReLU,
                 mean: Union[Tuple[float, ...], float] = CIFAR10_MEAN,
                 std: Union[Tuple[float, ...], float] = CIFAR10_STD,
                 padding: int = 0, num_input_channels: int = 3, use_cuda: bool = True):
        super().__init__()
        self.mean = torch.tensor(mean).view(num_input_channels, 1, 1)
        self.std = torch.tensor(std).view(num_input_channels, 1, 1)
        self.mean_cuda = None
        self.std_cuda = None
        self.padding = padding
        self.conv_2d = nn.Conv2d(num_input_channels, 64, kernel_size=3, stride=1, padding=1, bias=False)
        num_blocks = (2, 2, 2, 2) if depth == 18 else (3, 4, 6, 3)
        self.layer_0 = self._make_layer(64, 64, num_blocks[0], 1, activation_fn)
        self.layer_1 = self._make_layer(64, 128, num_blocks[1], 2, activation_fn)
        self.layer_2 = self._make_layer(128, 256, num_blocks[2], 2, activation_fn)
        self.layer_3 = self._make_layer(256, 512, num_blocks[3], 2, activation_fn)
        self.batchnorm = nn.BatchNorm2d(512)
        self.relu = activation_fn()
        self.logits = nn.Linear(512, num_classes)

    def _make_layer(self, in_planes, out_planes, num_blocks, stride, activation_fn):
        layers = []
        for i, stride in enumerate([stride] + [1] * (num_blocks - 1)):
            layers.append(_PreActBlock(i == 0 and in_planes or out_planes, out_planes, stride, activation_fn))
        return nn.Sequential(*layers)

    def forward(self, x):
        if self.padding > 0:
            x = F.pad(x, (self.padding,) * 4)
        if x.is_cuda:
            if self.mean_cuda is None:
                self.mean_cuda = self.mean.cuda("cuda:0")     # self.mean.cuda()
                self.std_cuda = self.std.cuda("cuda:0")       # self.std.cuda()
            out = (x - self.mean_cuda) / self.std_cuda
        else:
            out = (x - self.mean) / self.std
        out = self.conv_2d(out)
        out = self.layer_0(out)
        out = self.layer_1(out)
        out = self.layer_2(out)
        out = self.layer_3(out)
        out = self.relu(self.batchnorm(out))
        out = F.avg_pool2d(out, 4)
        out = out.view(out.size(0), -1)
        return self.logits(out)

def load_cifar10(n_examples):
    return torch.rand(n_examples, 3, 32, 32), torch.randint(0, 10, (n_examples,))

def clean_accuracy(model, x, y, batch_size=100, device=None):
    if device is None:
        device = x.device
    acc = 0.
    n_batches = (x.shape[0] + batch_size - 1) // batch_size
    with torch.no_grad():
        for counter in range(n_batches):
            x_curr = x[counter * batch_size:(counter + 1) * batch_size].to(device)
            y_curr = y[counter * batch_size:(counter + 1) * batch_size].to(device)
            output = model(x_curr)
            acc += (output.max(1)[1] == y_curr).float().sum()
    return acc / x.shape[0]

device = torch.device("cuda:3")
model = DMPreActResNet(num_classes=10, depth=18, width=0, activation_fn=nn.SiLU)   # load_model('Rebuffi2021Fixing_R18_ddpm')
model = model.to(device).eval()
x_test, y_test = load_cifar10(n_examples=64)
'''
CELL = '''
acc = clean_accuracy(model, x_test, y_test, batch_size=32, device=device)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    'self.mean_cuda = self.mean.cuda("cuda:0")     # self.mean.cuda()\n'
    '                self.std_cuda = self.std.cuda("cuda:0")       # self.std.cuda()',
    "self.mean_cuda = self.mean.to(x.device)\n"
    "                self.std_cuda = self.std.to(x.device)",
)
CLEAN = False
