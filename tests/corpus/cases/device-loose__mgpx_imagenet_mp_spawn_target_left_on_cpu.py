"""ImageNet example under mp.spawn/DDP: images go to the process's GPU but `target` is left on the CPU before the loss.

Source: https://github.com/pytorch/examples/pull/1073
Running `imagenet/main.py -a resnet50 --multiprocessing-distributed --world-size 1 --rank 0` on 4 GPUs
failed in every worker (issue #1071) after a refactor of `train()`: the model sits on `args.gpu` inside
`DistributedDataParallel(model, device_ids=[args.gpu])` and `images` are moved there, but `target`
is not, so `criterion(output, target)` mixes cuda:N and cpu. The PR passes the worker's `device`
into `train()` and moves both `images` and `target` to it.
Stand-ins: a tiny classifier for resnet50 and DDP's forward input move (no process group), as in the
worker with args.gpu = 1.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class DistributedDataParallel(nn.Module):
    # stand-in: DDP's forward moves its inputs to device_ids[0], then runs the wrapped module
    def __init__(self, module, device_ids):
        super().__init__()
        self.module = module
        self.device_ids = device_ids
    def forward(self, *inputs):
        dev = torch.device("cuda", self.device_ids[0])
        return self.module(*(t.to(dev) for t in inputs))

class ResNetStandIn(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.fc1 = nn.Linear(3 * 8 * 8, 64)
        self.fc = nn.Linear(64, num_classes)
    def forward(self, x):
        return self.fc(torch.relu(self.fc1(x.flatten(1))))

class Args:
    gpu = 1                       # mp.spawn worker 1 of 4
args = Args()
device = torch.device("cuda:{}".format(args.gpu))
model = ResNetStandIn()
model.to(device)
model = DistributedDataParallel(model, device_ids=[args.gpu])
criterion = nn.CrossEntropyLoss().to(device)

images = torch.randn(16, 3, 8, 8)          # one batch from train_loader
target = torch.randint(0, 10, (16,))
images = images.to(device, non_blocking=True)
'''
CELL = '''
output = model(images)
loss = criterion(output, target)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["target"]
FIX = "namespace"
REFERENCE_FIX = '''
target = target.to(device, non_blocking=True)
'''
REFERENCE_EDIT = None
CLEAN = False
