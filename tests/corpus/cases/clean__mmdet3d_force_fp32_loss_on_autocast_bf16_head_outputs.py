"""Look-alike: mmdet3d heads run under autocast and `@force_fp32` casts the predictions back before the loss.

Source: https://github.com/open-mmlab/mmdetection3d/blob/v1.0.0rc6/mmdet3d/models/dense_heads/centerpoint_head.py
With fp16 training the detector's forward runs under `auto_fp16`/autocast, so the head's
`preds_dicts` come out in low precision while the targets are float32; `CenterHead.loss` is
decorated with `@force_fp32(apply_to=('preds_dicts'))`, which casts the half predictions to
float32 before the focal/L1 losses. Low-precision outputs next to float32 targets, on purpose, and
the cell runs. Stand-ins: mmcv's `force_fp32` reduced to the cast; CPU autocast with bfloat16 for
the GPU's float16; the head to two 1x1 convolutions.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import functools
import torch
import torch.nn as nn
import torch.nn.functional as F

def force_fp32(apply_to=None):
    """mmcv.runner.force_fp32: cast the named low-precision tensor arguments to float32."""
    def decorator(old_func):
        @functools.wraps(old_func)
        def new_func(self, *args, **kwargs):
            def cast(obj):
                if torch.is_tensor(obj) and obj.is_floating_point():
                    return obj.float()
                if isinstance(obj, dict):
                    return {k: cast(v) for k, v in obj.items()}
                if isinstance(obj, (list, tuple)):
                    return type(obj)(cast(v) for v in obj)
                return obj
            args = [cast(a) for a in args]
            with torch.autocast("cpu", enabled=False):
                return old_func(self, *args, **kwargs)
        return new_func
    return decorator

class CenterHead(nn.Module):
    def __init__(self, in_ch=64, num_classes=10):
        super().__init__()
        self.heatmap = nn.Conv2d(in_ch, num_classes, 1)
        self.reg = nn.Conv2d(in_ch, 8, 1)

    def forward(self, x):
        return [dict(heatmap=self.heatmap(x), reg=self.reg(x))]

    @force_fp32(apply_to=('preds_dicts'))
    def loss(self, preds_dicts, heatmaps, anno_boxes):
        pred = preds_dicts[0]
        loss_heatmap = F.binary_cross_entropy_with_logits(pred['heatmap'], heatmaps)
        loss_bbox = F.l1_loss(pred['reg'], anno_boxes)
        return dict(loss_heatmap=loss_heatmap, loss_bbox=loss_bbox)

head = CenterHead()
bev_feats = torch.randn(2, 64, 32, 32)
heatmaps = torch.rand(2, 10, 32, 32)                    # float32 targets from get_targets
anno_boxes = torch.randn(2, 8, 32, 32)
'''
CELL = '''
with torch.autocast("cpu", dtype=torch.bfloat16):
    preds_dicts = head(bev_feats)
losses = head.loss(preds_dicts, heatmaps, anno_boxes)
total = sum(losses.values())
total.backward()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
