"""BCE + Dice loss fed uint8 masks: the loss casts the targets with `targets.float()` for BCE and lets the Dice products promote.

Source: https://github.com/extint/WEEDSBL/blob/32aeacd7c1f45a22a2fa750aa535c548fe45f3f8/models/losses.py
`BCEDiceLoss.forward(logits, targets)` computes `self.bce(logits, targets.float())` and then the soft
Dice with `probs * targets`, `targets.sum(dims)`; binary weed masks read from PNGs arrive as
torch.uint8 tensors and are passed as they are. `BCEWithLogitsLoss` would reject an integer target,
but the cast is inside the loss, and float * uint8 promotes to float. Look-alike: integer masks
handed to a BCE-based loss; it runs (CPU: dtype look-alike).
Stand-in: a two-layer segmentation net; the loss keeps the repository's code.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class BCEDiceLoss(nn.Module):
    def __init__(self, bce_weight: float = 0.5, eps: float = 1e-6):
        super().__init__()
        self.bce = nn.BCEWithLogitsLoss()
        self.w = bce_weight
        self.eps = eps

    def forward(self, logits: torch.Tensor, targets: torch.Tensor) -> torch.Tensor:
        bce = self.bce(logits, targets.float())
        probs = torch.sigmoid(logits)
        dims = (1, 2, 3)
        intersection = (probs * targets).sum(dims)
        union = probs.sum(dims) + targets.sum(dims)
        dice = (2 * intersection + self.eps) / (union + self.eps)
        dice_loss = 1 - dice.mean()
        return self.w * bce + (1 - self.w) * dice_loss

model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 1))
criterion = BCEDiceLoss(bce_weight=0.5)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
images = torch.rand(2, 3, 64, 64)
png_masks = (np.random.RandomState(0).rand(2, 1, 64, 64) > 0.8).astype(np.uint8)   # 0/1 PNG masks
masks = torch.from_numpy(png_masks)
'''
CELL = '''
optimizer.zero_grad()
logits = model(images)
loss = criterion(logits, masks)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
