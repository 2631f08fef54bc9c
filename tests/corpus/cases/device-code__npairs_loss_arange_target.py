"""A contrastive N-pairs loss builds its class targets with `torch.arange` on the CPU.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/2400
The user's LightningModule computed `target = torch.arange(x1.size()[0])` in `training_step` and
passed it to an `NPairsLoss` module (a CrossEntropyLoss over a similarity matrix). On the GPU the
loss failed with "Expected object of device type cuda but got device type cpu for argument #2
'target'": the model, the batch and the prediction were all on cuda, but the freshly made target
had no device. The fix: `torch.arange(..., device=predict.device)`. Lightning is reduced to the
module and its `training_step`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class NPairsLoss(nn.Module):
    def __init__(self, alpha=100):
        super().__init__()
        self.ce = nn.CrossEntropyLoss()
        self.alpha = alpha

    def similarities(self, x1, x2):
        x1 = x1 / x1.norm(dim=1, keepdim=True)
        x2 = x2 / x2.norm(dim=1, keepdim=True)
        return self.alpha * (x1 @ x2.t())

    def forward(self, predict, target):
        return self.ce(predict, target)

class PairEncoder(nn.Module):
    def __init__(self, vocab=100, hidden=16):
        super().__init__()
        self.enc1 = nn.Linear(32, hidden)
        self.enc2 = nn.Linear(32, hidden)
        self.loss_fn = NPairsLoss()

    def forward(self, x1, x2):
        return self.loss_fn.similarities(self.enc1(x1), self.enc2(x2))

    def training_step(self, batch, batch_idx):
        x1, x2 = batch["x1"], batch["x2"]
        predict = self(x1, x2)
        target = torch.arange(x1.size()[0])
        loss = self.loss_fn(predict, target)
        return {"loss": loss}

model = PairEncoder().to("cuda:0")
batch = {"x1": torch.randn(8, 32, device="cuda:0"), "x2": torch.randn(8, 32, device="cuda:0")}
'''
CELL = '''
out = model.training_step(batch, 0)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "target = torch.arange(x1.size()[0])",
    "target = torch.arange(x1.size()[0], device=predict.device)",
)
CLEAN = False
