"""thaw-slump-segmentation: SoftBCEWithLogitsLoss receives the int64 masks the training loop casts to long.

Source: https://github.com/initze/thaw-slump-segmentation/pull/18
With `loss_function: SoftBCEWithLogitsLoss` training failed inside `binary_cross_entropy_with_logits`
("Still having an error"): `train_epoch` moves the masks with `target.to(self.dev, torch.long)`
(the other losses want class indices), and with `smooth_factor=None` the loss passes the int64
`y_true` straight through as `soft_targets`, which BCE-with-logits cannot take. The follow-up fix
(#21) adds `y_true = y_true.float()` at the top of `forward`. The UNet is a small stand-in; the
Engine is reduced to one training step. Run on the CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
from typing import Optional
import torch
import torch.nn.functional as F
from torch import nn

class SoftBCEWithLogitsLoss(nn.Module):
    def __init__(self, weight: Optional[torch.Tensor] = None, ignore_index: Optional[int] = -100,
                 reduction: str = "mean", smooth_factor: Optional[float] = None,
                 pos_weight: Optional[torch.Tensor] = None):
        super().__init__()
        self.ignore_index = ignore_index
        self.reduction = reduction
        self.smooth_factor = smooth_factor
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)

    def forward(self, y_pred: torch.Tensor, y_true: torch.Tensor) -> torch.Tensor:
        if self.smooth_factor is not None:
            soft_targets = (1 - y_true) * self.smooth_factor + y_true * (1 - self.smooth_factor)
        else:
            soft_targets = y_true
        loss = F.binary_cross_entropy_with_logits(
            y_pred, soft_targets, self.weight, pos_weight=self.pos_weight, reduction="none"
        )
        if self.ignore_index is not None:
            not_ignored_mask = y_true != self.ignore_index
            loss *= not_ignored_mask.type_as(loss)
        if self.reduction == "mean":
            loss = loss.mean()
        return loss

class Engine:
    def __init__(self):
        self.dev = torch.device("cpu")
        self.model = nn.Sequential(nn.Conv2d(4, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 1)).to(self.dev)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        self.loss_function = SoftBCEWithLogitsLoss().to(self.dev)   # create_loss({"type": "SoftBCEWithLogitsLoss"})

engine = Engine()
img = torch.rand(2, 4, 32, 32)                                      # one batch of the data loader
target = torch.randint(0, 2, (2, 1, 32, 32), dtype=torch.uint8)
'''
CELL = '''
img = img.to(engine.dev, torch.float, non_blocking=True)
target = target.to(engine.dev, torch.long, non_blocking=True)
engine.opt.zero_grad()
y_hat = engine.model(img)
loss = engine.loss_function(y_hat, target)
loss.backward()
engine.opt.step()
'''
EXPECT_ERROR = ("result type Float can't be cast to the desired output type Long",
                "Found dtype Long but expected Float")
CULPRITS = ["target"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        if self.smooth_factor is not None:
            soft_targets""", """        y_true = y_true.float()
        if self.smooth_factor is not None:
            soft_targets""")
CLEAN = False
