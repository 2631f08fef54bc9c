"""Look-alike: RetinaNet's classification loss builds a float one-hot target from int64 labels for sigmoid focal loss.

Source: https://github.com/pytorch/vision/blob/main/torchvision/models/detection/retinanet.py
`RetinaNetClassificationHead.compute_loss` never hands the int64 `labels` to the loss: it allocates
`gt_classes_target = torch.zeros_like(cls_logits_per_image)` (float, like the logits), uses the
int64 labels (gathered with the int64 `matched_idxs`) only as column indices to write 1.0, drops the
between-threshold anchors with a boolean mask and calls `sigmoid_focal_loss` (BCE-with-logits) on
float logits and float targets, dividing by `max(1, num_foreground)` where `num_foreground` is an
int64 tensor. Integer labels next to a BCE loss are fine here. Stand-in: `compute_loss` and
`sigmoid_focal_loss` as in torchvision; the matcher output is given.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

def sigmoid_focal_loss(inputs, targets, alpha=0.25, gamma=2, reduction="none"):
    p = torch.sigmoid(inputs)
    ce_loss = F.binary_cross_entropy_with_logits(inputs, targets, reduction="none")
    p_t = p * targets + (1 - p) * (1 - targets)
    loss = ce_loss * ((1 - p_t) ** gamma)
    if alpha >= 0:
        alpha_t = alpha * targets + (1 - alpha) * (1 - targets)
        loss = alpha_t * loss
    if reduction == "sum":
        loss = loss.sum()
    elif reduction == "mean":
        loss = loss.mean()
    return loss

def _sum(x):
    res = x[0]
    for i in x[1:]:
        res = res + i
    return res

class RetinaNetClassificationHead(nn.Module):
    BETWEEN_THRESHOLDS = -2

    def __init__(self, in_channels, num_anchors, num_classes):
        super().__init__()
        self.cls_logits = nn.Conv2d(in_channels, num_anchors * num_classes, 3, padding=1)
        self.num_classes = num_classes

    def forward(self, x):
        out = self.cls_logits(x)
        n, _, h, w = out.shape
        return out.view(n, -1, self.num_classes, h, w).permute(0, 3, 4, 1, 2).reshape(n, -1, self.num_classes)

    def compute_loss(self, targets, head_outputs, matched_idxs):
        losses = []
        cls_logits = head_outputs["cls_logits"]
        for targets_per_image, cls_logits_per_image, matched_idxs_per_image in zip(targets, cls_logits, matched_idxs):
            foreground_idxs_per_image = matched_idxs_per_image >= 0
            num_foreground = foreground_idxs_per_image.sum()
            gt_classes_target = torch.zeros_like(cls_logits_per_image)
            gt_classes_target[
                foreground_idxs_per_image,
                targets_per_image["labels"][matched_idxs_per_image[foreground_idxs_per_image]],
            ] = 1.0
            valid_idxs_per_image = matched_idxs_per_image != self.BETWEEN_THRESHOLDS
            losses.append(
                sigmoid_focal_loss(
                    cls_logits_per_image[valid_idxs_per_image],
                    gt_classes_target[valid_idxs_per_image],
                    reduction="sum",
                )
                / max(1, num_foreground)
            )
        return _sum(losses) / len(targets)

head = RetinaNetClassificationHead(in_channels=8, num_anchors=3, num_classes=5)
features = torch.rand(2, 8, 4, 4)
targets = [{"boxes": torch.rand(2, 4), "labels": torch.tensor([1, 4])},
           {"boxes": torch.rand(1, 4), "labels": torch.tensor([3])}]
g = torch.Generator().manual_seed(0)
matched_idxs = [torch.randint(-2, 2, (48,), generator=g), torch.randint(-2, 1, (48,), generator=g)]
'''
CELL = '''
head_outputs = {"cls_logits": head(features)}
loss_cls = head.compute_loss(targets, head_outputs, matched_idxs)
loss_cls.backward()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
