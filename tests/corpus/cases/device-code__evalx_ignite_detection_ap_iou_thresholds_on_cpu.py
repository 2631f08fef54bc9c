"""ignite `ObjectDetectionAvgPrecisionRecall(device=cuda)`: the default `_iou_thresholds` stay on the CPU.

Source: https://github.com/pytorch/ignite/pull/3540
Reproduction from the PR: an SSD-style detection evaluation on `device = torch.device("cuda")` feeds
CUDA prediction/target dicts to the metric's `update`, which fails with "Expected all tensors to be on
the same device ... cuda:0 and cpu!": unless the user passes `iou_thresholds` as a tensor already on the
device, the constructor keeps the default thresholds as a CPU tensor, and `update` compares the CUDA
IoU matrix against them. Fix (the PR): build the thresholds with `device=device` in `__init__`.
Stand-in: the metric's constructor and the IoU-matching part of `update` (box IoU, threshold compare).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def box_iou(boxes1, boxes2):
    area1 = (boxes1[:, 2] - boxes1[:, 0]) * (boxes1[:, 3] - boxes1[:, 1])
    area2 = (boxes2[:, 2] - boxes2[:, 0]) * (boxes2[:, 3] - boxes2[:, 1])
    lt = torch.max(boxes1[:, None, :2], boxes2[None, :, :2])
    rb = torch.min(boxes1[:, None, 2:], boxes2[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    return inter / (area1[:, None] + area2[None, :] - inter)

class ObjectDetectionAvgPrecisionRecall:
    def __init__(self, iou_thresholds=None, num_classes=80, device=torch.device("cpu")):
        self._device = device
        self.num_classes = num_classes
        if iou_thresholds is None:
            iou_thresholds = torch.linspace(0.5, 0.95, 10, dtype=torch.double)
        self._iou_thresholds = iou_thresholds
        self._tp = []

    def update(self, output):
        y_pred, y = output
        for pred, target in zip(y_pred, y):
            ious = box_iou(pred["bbox"], target["bbox"]).to(torch.double)
            best = ious.max(dim=1).values
            matched = best[:, None] >= self._iou_thresholds[None, :]
            self._tp.append(matched)

num_images, num_classes, image_size = 8, 21, 300
device = torch.device("cuda:0")

def rand_boxes(n):
    xy = torch.rand(n, 2, device=device) * (image_size - 60)
    wh = torch.rand(n, 2, device=device) * 50 + 10
    return torch.cat([xy, xy + wh], dim=1)

y_pred = [{"bbox": rand_boxes(5), "scores": torch.rand(5, device=device),
           "labels": torch.randint(0, num_classes, (5,), device=device)} for _ in range(num_images)]
y = [{"bbox": rand_boxes(3), "labels": torch.randint(0, num_classes, (3,), device=device)}
     for _ in range(num_images)]
metric = ObjectDetectionAvgPrecisionRecall(num_classes=num_classes, device=device)
'''
CELL = '''
metric.update((y_pred, y))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["metric"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("iou_thresholds = torch.linspace(0.5, 0.95, 10, dtype=torch.double)",
                  "iou_thresholds = torch.linspace(0.5, 0.95, 10, dtype=torch.double, device=device)")
CLEAN = False
