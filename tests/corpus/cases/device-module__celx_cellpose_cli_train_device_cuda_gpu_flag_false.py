"""cellpose CLI training with --use_gpu: CellposeModel gets the GPU `device` but keeps `gpu=False`, so its net stays on the CPU.

Source: https://github.com/MouseLand/cellpose/issues/211
Same symptom as #176 on a later GitHub version: `python -m cellpose --train ... --use_gpu`
raised "Tensor for argument #2 'weight' is on CPU, but expected it to be on GPU (while checking
arguments for cudnn_batch_norm)". The user found the path: the CLI built
`CellposeModel(device=device, ...)` and left `gpu` at its default `False`; the model kept
`self.device` (the GPU) for the batches but only moved its network when `gpu` was true. The
user's workaround was `gpu=True` as the default of `CellposeModel.__init__`.
Stand-in: a tiny CPnet (BatchNorm -> ReLU -> Conv) and CellposeModel reduced to the device
logic and one training step; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
from torch import nn

gpu_device = torch.device("meta")   # the GPU the CLI picked with --use_gpu (meta stands in)

class CPnet(nn.Module):
    def __init__(self, nchan=2, nbase=16, nout=3):
        super().__init__()
        self.bn = nn.BatchNorm2d(nchan, eps=1e-5, momentum=0.05)
        self.conv = nn.Conv2d(nchan, nbase, 3, padding=1)
        self.out = nn.Conv2d(nbase, nout, 1)

    def forward(self, x):
        return self.out(torch.relu(self.conv(torch.relu(self.bn(x)))))

class CellposeModel:
    def __init__(self, gpu=False, pretrained_model=False, device=None):
        sdevice = gpu_device if gpu else torch.device("cpu")
        self.device = device if device is not None else sdevice
        self.gpu = gpu
        self.net = CPnet()
        if self.gpu:
            self.net.to(self.device)

    def train(self, train_data, train_labels, batch_size=2):
        self.net.train()
        X = torch.from_numpy(train_data[:batch_size]).to(self.device)
        return self.net(X)

rng = np.random.default_rng(0)
images = rng.random((4, 2, 32, 32), dtype=np.float32)
labels = rng.random((4, 3, 32, 32), dtype=np.float32)
# __main__.py: device = use_gpu and GPU device; model = models.CellposeModel(device=device, ...)
model = CellposeModel(device=gpu_device, pretrained_model="cyto")
'''
CELL = '''
out = model.train(images, labels)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["model.net"]
FIX = "namespace"
REFERENCE_FIX = '''
model.net.to(model.device)
'''
REFERENCE_EDIT = None
CLEAN = False
