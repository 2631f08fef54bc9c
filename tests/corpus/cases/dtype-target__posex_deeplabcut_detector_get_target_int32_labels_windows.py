"""DeepLabCut 3.0 top-down training on Windows: the FasterRCNN detector's targets carry int32 labels and torchvision refuses them.

Source: https://github.com/DeepLabCut/DeepLabCut/issues/2642
"FasterRCNN: `TypeError: target labels must of int64 type, instead got torch.int32`": transfer learning
from SuperAnimal-Quadruped (a top-down pose model trained with an object detector) failed at "Starting
object detector training..." on a Windows machine. The labels come from numpy integer arrays, which are
int32 on Windows, and `TorchvisionDetectorAdaptor.get_target` passes them through unchanged; torchvision's
RoIHeads insists on int64. The fix (commit 5667da2, "fix detector int32 bug on windows") casts them in
`get_target`: `"labels": labels["labels"][i][mask].long()` (and `is_crowd` likewise). Stand-in:
DeepLabCut's adaptor `forward`/`get_target` as in the repo; the torchvision detector reduced to a tiny
conv backbone, a box classifier over the ground-truth boxes and RoIHeads' target type checks; the batch
is built as the DLC loader builds it, with the Windows int32 labels written out explicitly.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

class FasterRCNN(nn.Module):
    """torchvision.models.detection.fasterrcnn_mobilenet_v3_large_fpn, reduced."""
    def __init__(self, num_classes=2):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(4), nn.Flatten())
        self.box_predictor = nn.Linear(8 * 16 + 4, num_classes)

    def forward(self, images, targets=None):
        if self.training and targets is not None:
            for t in targets:  # torchvision RoIHeads.forward
                floating_point_types = (torch.float, torch.double, torch.half)
                if t["boxes"].dtype not in floating_point_types:
                    raise TypeError(f"target boxes must of float type, instead got {t['boxes'].dtype}")
                if not t["labels"].dtype == torch.int64:
                    raise TypeError(f"target labels must of int64 type, instead got {t['labels'].dtype}")
        feats = self.backbone(images)
        losses, detections = {}, []
        if targets is not None:
            logits, labels = [], []
            for f, t in zip(feats, targets):
                boxes = t["boxes"] / images.shape[-1]
                logits.append(self.box_predictor(torch.cat([f.expand(len(boxes), -1), boxes], 1)))
                labels.append(t["labels"])
            losses["loss_classifier"] = F.cross_entropy(torch.cat(logits), torch.cat(labels))
        return losses, detections

class TorchvisionDetectorAdaptor(nn.Module):
    def __init__(self, model="fasterrcnn_mobilenet_v3_large_fpn", weights=None, num_classes=2):
        super().__init__()
        self.model = FasterRCNN(num_classes=num_classes)

    def forward(self, x, targets=None):
        return self.model(x, targets)

    def get_target(self, labels):
        res = []
        for i, box_ann in enumerate(labels["boxes"]):
            mask = (box_ann[:, 2] > 0.0) & (box_ann[:, 3] > 0.0)
            box_ann = box_ann[mask]
            # bbox format conversion (x, y, w, h) -> (x1, y1, x2, y2)
            box_ann[:, 2] += box_ann[:, 0]
            box_ann[:, 3] += box_ann[:, 1]
            res.append(
                {
                    "area": labels["area"][i][mask],
                    "labels": labels["labels"][i][mask],
                    "is_crowd": labels["is_crowd"][i][mask],
                    "boxes": box_ann,
                }
            )
        return res

detector = TorchvisionDetectorAdaptor("fasterrcnn_mobilenet_v3_large_fpn", num_classes=2)
detector.train()
optimizer = torch.optim.AdamW(detector.parameters(), lr=1e-4)

# one batch from the DLC loader: numpy annotations collated to tensors (np.int_ is int32 on Windows)
B, N = 2, 3
boxes = np.array([[[10, 12, 30, 40], [40, 5, 20, 25], [0, 0, 0, 0]]] * B, dtype=np.float32)
batch = {
    "image": torch.rand(B, 3, 64, 64),
    "annotations": {
        "boxes": torch.from_numpy(boxes),
        "area": torch.from_numpy(boxes[..., 2] * boxes[..., 3]),
        "labels": torch.from_numpy(np.ones((B, N), dtype=np.int32)),
        "is_crowd": torch.from_numpy(np.zeros((B, N), dtype=np.int32)),
    },
}
'''
CELL = '''
target = detector.get_target(batch["annotations"])
losses, _ = detector(batch["image"], target)
loss = sum(losses.values())
optimizer.zero_grad()
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = "target labels must of int64 type"
CULPRITS = ["detector"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''                    "labels": labels["labels"][i][mask],
                    "is_crowd": labels["is_crowd"][i][mask],''', '''                    "labels": labels["labels"][i][mask].long(),
                    "is_crowd": labels["is_crowd"][i][mask].long(),''')
CLEAN = False
