"""cellpose 0.6 training with --use_gpu: the network stays on the CPU while the batches go to the GPU.

Source: https://github.com/MouseLand/cellpose/issues/176
`python -m cellpose --train ...` with the torch backend failed with "Tensor for argument #2
'weight' is on CPU, but expected it to be on GPU (while checking arguments for
cudnn_batch_norm)". The training step moved each batch to `self.device` (the GPU), but the
network had never been moved there; the user fixed it by changing `self.net.train()` to
`self.net.train().cuda()` in core.py, and the maintainer fixed it on GitHub.
Stand-in: a tiny CPnet (BatchNorm -> ReLU -> Conv blocks as in cellpose) and a UnetModel whose
`train` is reduced to the failing step; the GPU is simulated by meta (BatchNorm in training
mode needs autograd-free real kernels that fake cuda lacks).
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
from torch import nn

def batchconv(in_channels, out_channels, sz):
    return nn.Sequential(nn.BatchNorm2d(in_channels, eps=1e-5, momentum=0.05),
                         nn.ReLU(inplace=True),
                         nn.Conv2d(in_channels, out_channels, sz, padding=sz // 2))

class CPnet(nn.Module):
    def __init__(self, nbase=(2, 16), nout=3):
        super().__init__()
        self.down = batchconv(nbase[0], nbase[1], 3)
        self.output = batchconv(nbase[1], nout, 1)

    def forward(self, data):
        return self.output(self.down(data))

class UnetModel:
    def __init__(self, gpu=True):
        self.device = torch.device("meta") if gpu else torch.device("cpu")   # meta = the GPU
        self.net = CPnet()          # built on the CPU; nothing moves it to self.device

    def _train_step(self, x, lbl):
        X = torch.from_numpy(x).to(self.device)
        y = self.net(X)
        return y

    def train(self, train_data, train_labels, batch_size=2):
        self.net.train()
        return self._train_step(train_data[:batch_size], train_labels[:batch_size])

rng = np.random.default_rng(0)
train_data = rng.random((4, 2, 32, 32), dtype=np.float32)
train_labels = rng.random((4, 3, 32, 32), dtype=np.float32)
model = UnetModel(gpu=True)
'''
CELL = '''
y = model.train(train_data, train_labels)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["model.net"]
FIX = "namespace"
REFERENCE_FIX = '''
model.net.to(model.device)
'''
REFERENCE_EDIT = None
CLEAN = False
