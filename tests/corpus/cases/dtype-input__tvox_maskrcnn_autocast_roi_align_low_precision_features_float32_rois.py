"""Mask R-CNN under autocast: the box RoI pooler feeds low-precision features and float32 rois to roi_align.

Source: https://github.com/pytorch/pytorch/issues/37735
"torch.cuda.amp.autocast not working with torchvision.models.detection.maskrcnn": inside autocast the
backbone/FPN convolutions return fp16 features, but the proposals (decoded from float32 anchors) and
the rois built from them stay float32, and torchvision's custom `roi_align` op had no autocast rule,
so the op got mixed dtypes. The maintainers fixed it in torchvision (pytorch/vision#2384) with an
autocast wrapper for `roi_align` that runs the kernel in float32 and casts the output back to the
input's dtype. Stand-in: a one-level Faster R-CNN box branch (`MultiScaleRoIAlign`-style pooler,
TwoMLPHead, predictor) with the RPN replaced by fixed proposals; the C++ kernel is a bilinear
`grid_sample` kernel that, like a custom op, does not take part in autocast. CPU autocast with
bfloat16 stands in for CUDA autocast with float16.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

def _roi_align_kernel(input, rois, spatial_scale, output_size, sampling_ratio):
    """Stand-in for torch.ops.torchvision.roi_align: a custom op, invisible to autocast."""
    with torch.autocast("cpu", enabled=False):
        n, c, h, w = input.shape
        oh, ow = output_size
        batch_idx = rois[:, 0].long()
        x1, y1, x2, y2 = (rois[:, 1:] * spatial_scale).unbind(1)
        ys = torch.linspace(0, 1, oh)
        xs = torch.linspace(0, 1, ow)
        gy = y1[:, None] + (y2 - y1)[:, None] * ys[None, :]
        gx = x1[:, None] + (x2 - x1)[:, None] * xs[None, :]
        gy = gy / (h - 1) * 2 - 1
        gx = gx / (w - 1) * 2 - 1
        grid = torch.stack([gx[:, None, :].expand(-1, oh, -1), gy[:, :, None].expand(-1, -1, ow)], dim=-1)
        return F.grid_sample(input[batch_idx], grid, align_corners=True)

def roi_align(input, boxes, output_size, spatial_scale=1.0, sampling_ratio=-1):
    rois = boxes
    return _roi_align_kernel(input, rois, spatial_scale, output_size, sampling_ratio)

def _convert_to_roi_format(boxes):
    concat_boxes = torch.cat(boxes, dim=0)
    ids = torch.cat([torch.full_like(b[:, :1], i) for i, b in enumerate(boxes)], dim=0)
    return torch.cat([ids, concat_boxes], dim=1)

class MultiScaleRoIAlign(nn.Module):
    def __init__(self, output_size=(7, 7), spatial_scale=0.25):
        super().__init__()
        self.output_size, self.spatial_scale = output_size, spatial_scale

    def forward(self, x, boxes, image_shapes):
        rois = _convert_to_roi_format(boxes)
        return roi_align(x["0"], rois, self.output_size, spatial_scale=self.spatial_scale, sampling_ratio=2)

class TwoMLPHead(nn.Module):
    def __init__(self, in_channels, representation_size):
        super().__init__()
        self.fc6 = nn.Linear(in_channels, representation_size)
        self.fc7 = nn.Linear(representation_size, representation_size)

    def forward(self, x):
        return F.relu(self.fc7(F.relu(self.fc6(x.flatten(start_dim=1)))))

class RoIHeads(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.box_roi_pool = MultiScaleRoIAlign()
        self.box_head = TwoMLPHead(8 * 7 * 7, 32)
        self.cls_score = nn.Linear(32, num_classes)

    def forward(self, features, proposals, image_shapes, targets):
        box_features = self.box_roi_pool(features, proposals, image_shapes)
        class_logits = self.cls_score(self.box_head(box_features))
        labels = torch.cat([t["labels"] for t in targets])
        return {"loss_classifier": F.cross_entropy(class_logits.float(), labels)}

class MaskRCNNLike(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, stride=4, padding=1), nn.ReLU())
        self.roi_heads = RoIHeads()

    def forward(self, images, targets):
        features = {"0": self.backbone(images)}
        proposals = [t["boxes"] for t in targets]      # RPN stand-in: float32 proposals
        return self.roi_heads(features, proposals, [tuple(images.shape[-2:])] * len(images), targets)

model = MaskRCNNLike().train()
images = torch.rand(2, 3, 64, 64)
targets = [{"boxes": torch.tensor([[4.0, 4.0, 40.0, 40.0], [10.0, 8.0, 60.0, 50.0]]), "labels": torch.tensor([1, 2])},
           {"boxes": torch.tensor([[0.0, 0.0, 30.0, 20.0], [16.0, 16.0, 48.0, 60.0]]), "labels": torch.tensor([2, 0])}]
'''
CELL = '''
with torch.autocast("cpu", dtype=torch.bfloat16):      # torch.cuda.amp.autocast() in the report
    loss_dict = model(images, targets)
losses = sum(loss for loss in loss_dict.values())
'''
EXPECT_ERROR = "expected scalar type"
CULPRITS = ["roi_align"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""    rois = boxes
    return _roi_align_kernel(input, rois, spatial_scale, output_size, sampling_ratio)""",
"""    rois = boxes
    if torch.is_autocast_enabled("cpu"):
        return _roi_align_kernel(input.float(), rois.float(), spatial_scale, output_size, sampling_ratio).to(input.dtype)
    return _roi_align_kernel(input, rois, spatial_scale, output_size, sampling_ratio)""")
CLEAN = False
