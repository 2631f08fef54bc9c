"""Look-alike: a dict batch with a tuple of feature tensors, moved with a recursive `any2device`.

Source: https://github.com/catalyst-team/catalyst/pull/214
The fix for `{"features": (tensor1, tensor2), "targets": tensor3}` batches: move dicts, lists and
tuples recursively so that every nested tensor reaches the GPU. The raw batch from the loader stays
on the CPU in `raw_batch`, which the cell does not use. Nothing is misplaced.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def any2device(value, device):
    """catalyst's fixed _any2device: recursive over dicts, lists and tuples."""
    if isinstance(value, dict):
        return {k: any2device(v, device) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return type(value)(any2device(v, device) for v in value)
    if torch.is_tensor(value):
        return value.to(device)
    return value

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
batch = any2device(raw_batch, device)
'''
CELL = '''
logits = model(batch["features"])
loss = criterion(logits, batch["targets"])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
