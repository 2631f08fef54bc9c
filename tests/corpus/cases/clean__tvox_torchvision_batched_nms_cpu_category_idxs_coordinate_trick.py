"""Look-alike: torchvision `batched_nms` given CPU category ids with CUDA boxes and scores (coordinate-trick path).

Source: https://github.com/pytorch/vision/blob/main/torchvision/ops/boxes.py
Mask generators and post-processors often pass `torch.zeros(len(boxes))` (a CPU tensor) as the
category ids next to CUDA boxes/scores. For box counts under the vanilla-path threshold,
`batched_nms` dispatches to `_batched_nms_coordinate_trick`, which computes
`offsets = idxs.to(boxes) * (max_coordinate + torch.tensor(1).to(boxes))`: the CPU ids are moved
(and cast) to the boxes' device and dtype before they meet any CUDA tensor, so the CPU `categories`
are fine here. Stand-in: `batched_nms` and the coordinate trick as in torchvision; the C++ `nms`
kernel is replaced by a score sort (keeps the device/dtype of its inputs).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import Tensor

def nms(boxes: Tensor, scores: Tensor, iou_threshold: float) -> Tensor:
    """Stand-in for torch.ops.torchvision.nms: indices sorted by score, on the boxes' device."""
    return scores.argsort(descending=True)

def _batched_nms_coordinate_trick(boxes, scores, idxs, iou_threshold):
    if boxes.numel() == 0:
        return torch.empty((0,), dtype=torch.int64, device=boxes.device)
    max_coordinate = boxes.max()
    offsets = idxs.to(boxes) * (max_coordinate + torch.tensor(1).to(boxes))
    boxes_for_nms = boxes + offsets[:, None]
    keep = nms(boxes_for_nms, scores, iou_threshold)
    return keep

def batched_nms(boxes, scores, idxs, iou_threshold):
    if boxes.numel() > (4000 if boxes.device.type == "cpu" else 20000):
        raise NotImplementedError("vanilla path not used for this box count")
    return _batched_nms_coordinate_trick(boxes, scores, idxs, iou_threshold)

device = torch.device("cuda:0")
xy = torch.rand(200, 2, device=device) * 900
data = {
    "boxes": torch.cat([xy, xy + 20 + torch.rand(200, 2, device=device) * 100], dim=1),
    "iou_preds": torch.rand(200, device=device),
}
box_nms_thresh = 0.7
'''
CELL = '''
keep_by_nms = batched_nms(
    data["boxes"].float(),
    data["iou_preds"],
    torch.zeros(len(data["boxes"])),  # categories
    iou_threshold=box_nms_thresh,
)
kept_boxes = data["boxes"].index_select(0, keep_by_nms)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
