"""Catalyst runner: a batch `{"features": (t1, t2), "targets": t3}` reaches the model with its features on the CPU.

Source: https://github.com/catalyst-team/catalyst/pull/214
"Fix batch2device": "if dataset outputs a batch as follows: `{ "features": (tensor1, tensor2),
"targets": tensor3 }`, `tensor1` and `tensor2` will not be moved to GPU." The runner's old
`_batch2device` moved only the dict's tensor values; the tuple under "features" was passed through
untouched. The PR made the move recursive. Stand-in: the old one-level `batch2device` and a
two-input model.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

def batch2device(batch, device):
    """catalyst's old _batch2device: one level of a dict, tensors only."""
    return {key: value.to(device) if torch.is_tensor(value) else value
            for key, value in batch.items()}

class TwoTowerNet(nn.Module):
    def __init__(self, d_img=16, d_meta=4, n_classes=3):
        super().__init__()
        self.img = nn.Linear(d_img, 32)
        self.meta = nn.Linear(d_meta, 32)
        self.head = nn.Linear(64, n_classes)

    def forward(self, features):
        image, meta = features
        return self.head(torch.cat([self.img(image), self.meta(meta)], dim=1))

device = torch.device("cuda:0")
model = TwoTowerNet().to(device)
criterion = nn.CrossEntropyLoss()
raw_batch = {"features": (torch.randn(8, 16), torch.randn(8, 4)),
             "targets": torch.randint(0, 3, (8,))}
batch = batch2device(raw_batch, device)
'''
CELL = '''
logits = model(batch["features"])
loss = criterion(logits, batch["targets"])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["batch['features'][0]", "batch['features'][1]"]
FIX = "namespace"
REFERENCE_FIX = '''
batch["features"] = tuple(t.to(device) for t in batch["features"])
'''
REFERENCE_EDIT = None
CLEAN = False
