"""carefree-learn: with `PrefetchLoader` applied, batches always land on cuda:0, whatever GPU the model uses.

Source: https://github.com/carefree0910/carefree-learn/issues/32
"Should not always use cuda:0 when `PrefetchLoader` is applied": the prefetching wrapper copies each
batch with `.cuda(non_blocking=True)`, i.e. to the current device (cuda:0), while the pipeline had
put the model on another GPU (cuda:1). The fix gives the loader the model's device and copies to it.
Stand-in: the prefetch wrapper over a list of collated CPU batches (`.to("cuda:0", ...)` plays the
index-less `.cuda()`), and a small MLP on cuda:1.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class PrefetchLoader:
    """carefree-learn's PrefetchLoader, reduced: copies the next batch ahead of time."""
    def __init__(self, loader, device):
        self.loader = loader
        self.device = device

    def _to_device(self, batch):
        return {k: v.to("cuda:0", non_blocking=True) for k, v in batch.items()}

    def __iter__(self):
        for batch in self.loader:
            yield self._to_device(batch)

class FCNN(nn.Module):
    def __init__(self, in_dim=16, out_dim=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(in_dim, 32), nn.ReLU(), nn.Linear(32, out_dim))
    def forward(self, batch):
        return self.net(batch["input"])

device = torch.device("cuda:1")
model = FCNN().to(device)
cpu_batches = [{"input": torch.randn(8, 16), "labels": torch.randint(0, 3, (8, 1))} for _ in range(3)]
loader = PrefetchLoader(cpu_batches, device)
'''
CELL = '''
batch = next(iter(loader))
predictions = model(batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["loader"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('v.to("cuda:0", non_blocking=True)', 'v.to(self.device, non_blocking=True)')
CLEAN = False
