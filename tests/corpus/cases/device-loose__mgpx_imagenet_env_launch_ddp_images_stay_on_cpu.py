"""ImageNet example launched as plain env:// distributed (one process per node): `args.gpu` is None, so `images` never leave the CPU while the model is on the GPU.

Source: https://github.com/pytorch/examples/pull/995
Running the example in "regular distributed" mode (`--world-size N --rank R`, without
`--multiprocessing-distributed`) leaves `args.gpu = None`: the model goes through `model.cuda()` and
`DistributedDataParallel(model)` (no device_ids, so DDP does not move inputs), `target` is moved by
`target.cuda(args.gpu)`, but `images` are moved only `if args.gpu is not None`. The forward fails with
"Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same". The PR
moves `images` to the GPU whenever CUDA is available.
Stand-ins: a small linear classifier for the resnet (fake conv does not check devices) and a DDP
without device_ids that runs the module as is.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class DistributedDataParallel(nn.Module):
    # stand-in: with device_ids=None (multi-device/unspecified module) DDP leaves the inputs where they are
    def __init__(self, module, device_ids=None):
        super().__init__()
        self.module = module
        self.device_ids = device_ids
    def forward(self, *inputs):
        return self.module(*inputs)

class ResNetStandIn(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.fc1 = nn.Linear(3 * 8 * 8, 64)
        self.fc = nn.Linear(64, num_classes)
    def forward(self, x):
        return self.fc(torch.relu(self.fc1(x.flatten(1))))

class Args:
    gpu = None                    # env:// launch, no --multiprocessing-distributed
    distributed = True
args = Args()
model = ResNetStandIn()
model.to("cuda:0")                # model.cuda()
model = DistributedDataParallel(model)
criterion = nn.CrossEntropyLoss().to("cuda:0")

images = torch.randn(16, 3, 8, 8)
target = torch.randint(0, 10, (16,))
if args.gpu is not None:
    images = images.cuda(args.gpu, non_blocking=True)
target = target.to("cuda:0", non_blocking=True)   # target.cuda(args.gpu, non_blocking=True)
'''
CELL = '''
output = model(images)
loss = criterion(output, target)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["images"]
FIX = "namespace"
REFERENCE_FIX = '''
images = images.to("cuda:0", non_blocking=True)
'''
REFERENCE_EDIT = None
CLEAN = False
