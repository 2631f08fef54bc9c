"""Look-alike: the DDP tutorial feeds a CPU batch straight into `ddp_model` on the rank's GPU: DistributedDataParallel moves forward inputs to `device_ids[0]` itself.

Source: https://github.com/pytorch/tutorials/blob/main/intermediate_source/ddp_tutorial.rst
`demo_basic(rank, world_size)`: `model = ToyModel().to(rank)`, `ddp_model = DDP(model, device_ids=[rank])`,
`outputs = ddp_model(torch.randn(20, 10))` with a CPU tensor, `labels = torch.randn(20, 5).to(rank)`,
`loss_fn(outputs, labels)`. The batch looks left behind on the CPU, but DDP's forward (`_pre_forward` ->
`_to_kwargs`) copies the inputs to `device_ids[0]` before running the module.
Stand-in: DDP's input move without a process group, in the process of rank 1; no backward (simulated
GPU).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class DDP(nn.Module):
    # stand-in for DistributedDataParallel: forward moves the inputs to device_ids[0]
    def __init__(self, module, device_ids=None):
        super().__init__()
        self.module = module
        self.device_ids = device_ids
    def forward(self, *inputs, **kwargs):
        if self.device_ids:
            dev = torch.device("cuda", self.device_ids[0])
            inputs = tuple(t.to(dev) if isinstance(t, torch.Tensor) else t for t in inputs)
        return self.module(*inputs, **kwargs)

class ToyModel(nn.Module):
    def __init__(self):
        super(ToyModel, self).__init__()
        self.net1 = nn.Linear(10, 10)
        self.relu = nn.ReLU()
        self.net2 = nn.Linear(10, 5)

    def forward(self, x):
        return self.net2(self.relu(self.net1(x)))

rank, world_size = 1, 2
model = ToyModel().to(f"cuda:{rank}")    # .to(rank)
ddp_model = DDP(model, device_ids=[rank])
loss_fn = nn.MSELoss()
'''
CELL = '''
with torch.no_grad():
    outputs = ddp_model(torch.randn(20, 10))
    labels = torch.randn(20, 5).to(f"cuda:{rank}")
    loss = loss_fn(outputs, labels)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
