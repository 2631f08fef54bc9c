"""Look-alike: torchgpipe's GPipe splits an nn.Sequential over two GPUs and runs micro-batches through it; the input goes to `model.devices[0]`, the target to `model.devices[-1]`.

Source: https://github.com/kakaobrain/torchgpipe/blob/master/docs/guide.rst
The guide's training loop: `model = GPipe(model, balance=[...], chunks=8)`, then
`in_device = model.devices[0]`, `out_device = model.devices[-1]`, and per batch
`input = input.to(in_device, non_blocking=True)`, `target = target.to(out_device, non_blocking=True)`,
`output = model(input)`, `loss = F.cross_entropy(output, target)`. GPipe moves each micro-batch between
partitions itself; the output lands on the last partition's device, where the target was sent. Stand-in:
GPipe reduced to partitioning by `balance`, micro-batching with `chunk`, and copying activations between
partitions (no streams, no checkpointing).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class GPipe(nn.Module):
    # stand-in for torchgpipe.GPipe: partitions by `balance`, one device per partition
    def __init__(self, module, balance, devices=None, chunks=1):
        super().__init__()
        layers = list(module.children())
        devices = devices or [torch.device(f"cuda:{i}") for i in range(len(balance))]
        self.partitions = nn.ModuleList()
        self.devices = []
        start = 0
        for n, device in zip(balance, devices):
            self.partitions.append(nn.Sequential(*layers[start:start + n]).to(device))
            self.devices.append(torch.device(device))
            start += n
        self.chunks = chunks

    def forward(self, input):
        outputs = []
        for batch in input.chunk(self.chunks):
            for partition, device in zip(self.partitions, self.devices):
                batch = partition(batch.to(device))
            outputs.append(batch)
        return torch.cat(outputs)

model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
                      nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                      nn.Flatten(), nn.Linear(32, 10))
model = GPipe(model, balance=[4, 4], chunks=4)
in_device = model.devices[0]
out_device = model.devices[-1]
input = torch.randn(16, 3, 32, 32)
target = torch.randint(0, 10, (16,))
'''
CELL = '''
input = input.to(in_device, non_blocking=True)
target = target.to(out_device, non_blocking=True)
with torch.no_grad():
    output = model(input)
    loss = F.cross_entropy(output, target)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
