"""mmpretrain: `use_sigmoid=True` loss with `to_onehot=True` labels and no Mixup gets int64 one-hot targets.

Source: https://github.com/open-mmlab/mmpretrain/issues/1520
With `use_sigmoid=True` in CrossEntropyLoss and `to_onehot=True` in ClsDataPreprocessor but no batch
augmentation, the one-hot label stays int64 (only Mixup/CutMix produce float labels), and
`binary_cross_entropy_with_logits` raises "result type Float can't be cast to the desired output
type Long". The fix (PR #1525): `label = label.float()` in the loss. Stand-in: the preprocessor's
one-hot step and the loss's sigmoid branch.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class ClsDataPreprocessor:
    def __init__(self, num_classes, to_onehot=True, batch_augments=None):
        self.num_classes, self.to_onehot, self.batch_augments = num_classes, to_onehot, batch_augments

    def __call__(self, data):
        inputs, gt_label = data["inputs"].float() / 255., data["gt_label"]
        if self.to_onehot:
            gt_label = F.one_hot(gt_label, self.num_classes)
        if self.batch_augments is not None:
            inputs, gt_label = self.batch_augments(inputs, gt_label)
        return {"inputs": inputs, "gt_label": gt_label}

class CrossEntropyLoss(nn.Module):
    def __init__(self, use_sigmoid=False, loss_weight=1.0):
        super().__init__()
        self.use_sigmoid, self.loss_weight = use_sigmoid, loss_weight

    def forward(self, cls_score, label):
        if self.use_sigmoid:
            loss = F.binary_cross_entropy_with_logits(cls_score, label, reduction="mean")
        else:
            loss = F.cross_entropy(cls_score, label)
        return self.loss_weight * loss

classifier = nn.Sequential(nn.Conv2d(3, 8, 3), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 5))
data_preprocessor = ClsDataPreprocessor(num_classes=5, to_onehot=True)
loss_module = CrossEntropyLoss(use_sigmoid=True)
batch = {"inputs": torch.randint(0, 256, (4, 3, 16, 16), dtype=torch.uint8),
         "gt_label": torch.tensor([0, 2, 4, 1])}
'''
CELL = '''
data = data_preprocessor(batch)
cls_score = classifier(data["inputs"])
loss = loss_module(cls_score, data["gt_label"])
loss.backward()
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type Long"
CULPRITS = ["loss_module"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "loss = F.binary_cross_entropy_with_logits(cls_score, label, reduction=\"mean\")",
    "loss = F.binary_cross_entropy_with_logits(cls_score, label.float(), reduction=\"mean\")",
)
CLEAN = False
