"""segmentation_models.pytorch DiceLoss(mode='multiclass') on float masks: F.one_hot needs int64 class indices.

Source: https://github.com/qubvel-org/segmentation_models.pytorch/issues/462
"dice loss cannot work": training a 4-class model with `smp.losses.DiceLoss(mode='multiclass')`
failed inside the loss at `y_true = F.one_hot(y_true, num_classes)` with "RuntimeError: one_hot is
only applicable to index tensor": the masks from the example-style dataset are float (they were
prepared as float arrays), while `F.one_hot` takes int64 class indices. The maintainer's answer:
the target should be of type long (see also issue #323). Stand-in: DiceLoss's multiclass branch and
a small segmentation head.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

MULTICLASS_MODE = "multiclass"

def soft_dice_score(output, target, smooth=0.0, eps=1e-7, dims=None):
    intersection = torch.sum(output * target, dim=dims)
    cardinality = torch.sum(output + target, dim=dims)
    return (2.0 * intersection + smooth) / (cardinality + smooth).clamp_min(eps)

class DiceLoss(nn.Module):
    """segmentation_models_pytorch.losses.DiceLoss (0.2.0), multiclass branch."""
    def __init__(self, mode, from_logits=True, smooth=0.0, eps=1e-7):
        super().__init__()
        self.mode, self.from_logits, self.smooth, self.eps = mode, from_logits, smooth, eps

    def forward(self, y_pred, y_true):
        if self.from_logits:
            y_pred = y_pred.log_softmax(dim=1).exp()
        bs = y_true.size(0)
        num_classes = y_pred.size(1)
        dims = (0, 2)
        if self.mode == MULTICLASS_MODE:
            y_true = y_true.view(bs, -1)
            y_pred = y_pred.view(bs, num_classes, -1)
            y_true = F.one_hot(y_true, num_classes)   # N,H*W -> N,H*W, C
            y_true = y_true.permute(0, 2, 1)          # N, C, H*W
        scores = soft_dice_score(y_pred, y_true.type_as(y_pred), self.smooth, self.eps, dims=dims)
        return (1.0 - scores).mean()

model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 4, 1))
loss = DiceLoss(mode="multiclass")
images = torch.randn(2, 3, 32, 32)
# masks prepared as float arrays in the dataset (class ids 0..3), collated to a float tensor
masks = torch.from_numpy(np.random.randint(0, 4, (2, 32, 32)).astype("float32"))
'''
CELL = '''
prediction = model(images)
loss_train = loss(prediction, masks)
'''
EXPECT_ERROR = "one_hot is only applicable to index tensor"
CULPRITS = ["masks"]
FIX = "namespace"
REFERENCE_FIX = '''
masks = masks.long()
'''
REFERENCE_EDIT = None
CLEAN = False
