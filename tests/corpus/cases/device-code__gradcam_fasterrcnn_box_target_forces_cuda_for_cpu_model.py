"""pytorch-grad-cam FasterRCNNBoxScoreTarget moves its tensors to CUDA even when the detector is pinned to the CPU.

Source: https://github.com/jacobgil/pytorch-grad-cam/pull/588
"`FasterRCNNBoxScoreTarget` still hard-codes `if torch.cuda.is_available(): output = output.cuda()`
... twice inside `__call__`, which forces CUDA/MPS even when the user explicitly pins the detection
model to CPU": the running score and each reference `box` go to the GPU while `model_outputs["boxes"]`
and the scores are on the CPU, so `box_iou` (and the score sum) mix devices. The fix takes the device
from `model_outputs["boxes"].device` (as #546 did for SemanticSegmentationTarget). Stand-in: the
target with `torch.cuda.is_available()` as it evaluates on the reporter's GPU machine (True), a
torchvision-style `box_iou`, a tiny detector returning Faster R-CNN's output dict, and the
data-dependent `if` / indexing of the score written with `index_select` and `torch.where`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

def cuda_is_available():
    return True          # torch.cuda.is_available() on the reporter's machine

def box_iou(boxes1, boxes2):
    """torchvision.ops.box_iou"""
    area1 = (boxes1[:, 2] - boxes1[:, 0]) * (boxes1[:, 3] - boxes1[:, 1])
    area2 = (boxes2[:, 2] - boxes2[:, 0]) * (boxes2[:, 3] - boxes2[:, 1])
    lt = torch.max(boxes1[:, None, :2], boxes2[:, :2])
    rb = torch.min(boxes1[:, None, 2:], boxes2[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[:, :, 0] * wh[:, :, 1]
    return inter / (area1[:, None] + area2 - inter)

class FasterRCNNBoxScoreTarget:
    def __init__(self, labels, bounding_boxes, iou_threshold=0.5):
        self.labels = labels
        self.bounding_boxes = bounding_boxes
        self.iou_threshold = iou_threshold

    def __call__(self, model_outputs):
        output = torch.Tensor([0])
        if cuda_is_available():
            output = output.to("cuda:0")
        if len(model_outputs["boxes"]) == 0:
            return output
        for box, label in zip(self.bounding_boxes, self.labels):
            box = torch.Tensor(box[None, :])
            if cuda_is_available():
                box = box.to("cuda:0")
            ious = box_iou(box, model_outputs["boxes"])
            index = ious.argmax().view(1)
            iou = ious[0].index_select(0, index)
            keep = (iou > self.iou_threshold) & (model_outputs["labels"].index_select(0, index) == label)
            score = iou + model_outputs["scores"].index_select(0, index)
            output = output + torch.where(keep, score, torch.zeros_like(score))
        return output

class TinyDetector(nn.Module):
    """Returns Faster R-CNN's per-image output dict for a fixed set of proposals."""
    def __init__(self, num_classes=5, num_boxes=6):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.cls_head = nn.Linear(8, num_boxes * num_classes)
        self.box_head = nn.Linear(8, num_boxes * 4)
        self.num_classes, self.num_boxes = num_classes, num_boxes

    def forward(self, x):
        f = self.backbone(x).flatten(1)
        logits = self.cls_head(f).view(-1, self.num_boxes, self.num_classes)
        xy = self.box_head(f).view(-1, self.num_boxes, 4).sigmoid() * 100
        boxes = torch.cat([xy[..., :2], xy[..., :2] + 20 + xy[..., 2:]], dim=-1)
        scores, labels = logits.softmax(-1).max(-1)
        return [{"boxes": b, "labels": l, "scores": s} for b, l, s in zip(boxes, labels, scores)]

model = TinyDetector().eval().to("cpu")      # the user pins the detector to the CPU
input_tensor = torch.rand(1, 3, 64, 64)
with torch.no_grad():
    outputs = model(input_tensor)
boxes = np.array([[10.0, 10.0, 40.0, 40.0], [50.0, 20.0, 90.0, 70.0]], dtype=np.float32)
labels = [1, 3]
targets = [FasterRCNNBoxScoreTarget(labels=labels, bounding_boxes=boxes)]
'''
CELL = '''
scores = [target(output) for target, output in zip(targets, outputs)]
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["targets[0]"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        output = torch.Tensor([0])
        if cuda_is_available():
            output = output.to("cuda:0")
        if len(model_outputs["boxes"]) == 0:
            return output
        for box, label in zip(self.bounding_boxes, self.labels):
            box = torch.Tensor(box[None, :])
            if cuda_is_available():
                box = box.to("cuda:0")""", """        device = model_outputs["boxes"].device
        output = torch.Tensor([0]).to(device)
        if len(model_outputs["boxes"]) == 0:
            return output
        for box, label in zip(self.bounding_boxes, self.labels):
            box = torch.Tensor(box[None, :]).to(device)""")
CLEAN = False
