"""torchrun/DDP example: `device` was built before the process bound its GPU, so rank 1 puts the model on cuda:0 while DDP(device_ids=[1]) sends the batch to cuda:1.

Source: https://github.com/jshn9515/deep-learning-notes/pull/39
Review of the notes' minimal DDP script: `device` comes from an earlier cell (a cached indexed default
device, `cuda:0`) before `set_device_index(local_rank)`; then `model = Model().to(device)` and
`DDP(model, device_ids=[local_rank])`. "On ranks greater than zero, this moves the model ... to GPU 0
while DDP is configured with device_ids=[local_rank], causing a device mismatch": DDP moves the inputs
to device_ids[0]. Fix: rebuild `device` from the local rank after binding it.
Stand-in: DDP's forward input move (`_to_kwargs` to device_ids[0]) without a process group, as in
process LOCAL_RANK=1.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class DDP(nn.Module):
    # stand-in for DistributedDataParallel: forward moves inputs to device_ids[0], then runs the module
    def __init__(self, module, device_ids):
        super().__init__()
        self.module = module
        self.device_ids = device_ids
        self.device = torch.device(f"cuda:{device_ids[0]}")
    def forward(self, *inputs, **kwargs):
        inputs = tuple(t.to(self.device) if isinstance(t, torch.Tensor) else t for t in inputs)
        return self.module(*inputs, **kwargs)

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5))
    def forward(self, x):
        return self.net(x)

device = torch.device("cuda:0")          # earlier cell: the default device, cached before binding
local_rank = 1                            # int(os.environ['LOCAL_RANK']) in the second process
# accl.set_device_index(local_rank); dist.init_process_group(backend)
model = Model().to(device)
model = DDP(model, device_ids=[local_rank])
x = torch.randn(16, 20).to(device)
y = torch.randint(0, 5, (16,)).to(device)
'''
CELL = '''
logits = model(x)
loss = nn.functional.cross_entropy(logits, y.to(logits.device))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.module"]
FIX = "namespace"
REFERENCE_FIX = '''
device = torch.device(f"cuda:{local_rank}")
model.module.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
