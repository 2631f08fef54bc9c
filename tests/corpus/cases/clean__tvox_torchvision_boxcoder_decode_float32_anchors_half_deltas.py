"""Look-alike: torchvision `BoxCoder.decode` with float32 anchors and half-precision box deltas.

Source: https://github.com/pytorch/vision/blob/main/torchvision/models/detection/_utils.py
With a detector run in half precision (`model.half()`), the RPN/box head returns fp16 regression
deltas while the anchors (or proposals) handed to the coder are float32. `decode_single` starts with
`boxes = boxes.to(rel_codes.dtype)` and builds its constant with
`torch.tensor(0.5, dtype=pred_ctr_y.dtype, device=pred_h.device)`, so the float32 anchors next to
half deltas are not a mismatch. Stand-in: `BoxCoder.decode`/`decode_single` as in torchvision, fed
by a small half-precision regression head on CUDA.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

class BoxCoder:
    def __init__(self, weights, bbox_xform_clip=math.log(1000.0 / 16)):
        self.weights = weights
        self.bbox_xform_clip = bbox_xform_clip

    def decode(self, rel_codes, boxes):
        boxes_per_image = [b.size(0) for b in boxes]
        concat_boxes = torch.cat(boxes, dim=0)
        box_sum = 0
        for val in boxes_per_image:
            box_sum += val
        if box_sum > 0:
            rel_codes = rel_codes.reshape(box_sum, -1)
        pred_boxes = self.decode_single(rel_codes, concat_boxes)
        if box_sum > 0:
            pred_boxes = pred_boxes.reshape(box_sum, -1, 4)
        return pred_boxes

    def decode_single(self, rel_codes, boxes):
        boxes = boxes.to(rel_codes.dtype)
        widths = boxes[:, 2] - boxes[:, 0]
        heights = boxes[:, 3] - boxes[:, 1]
        ctr_x = boxes[:, 0] + 0.5 * widths
        ctr_y = boxes[:, 1] + 0.5 * heights
        wx, wy, ww, wh = self.weights
        dx = rel_codes[:, 0::4] / wx
        dy = rel_codes[:, 1::4] / wy
        dw = rel_codes[:, 2::4] / ww
        dh = rel_codes[:, 3::4] / wh
        dw = torch.clamp(dw, max=self.bbox_xform_clip)
        dh = torch.clamp(dh, max=self.bbox_xform_clip)
        pred_ctr_x = dx * widths[:, None] + ctr_x[:, None]
        pred_ctr_y = dy * heights[:, None] + ctr_y[:, None]
        pred_w = torch.exp(dw) * widths[:, None]
        pred_h = torch.exp(dh) * heights[:, None]
        c_to_c_h = torch.tensor(0.5, dtype=pred_ctr_y.dtype, device=pred_h.device) * pred_h
        c_to_c_w = torch.tensor(0.5, dtype=pred_ctr_x.dtype, device=pred_w.device) * pred_w
        pred_boxes1 = pred_ctr_x - c_to_c_w
        pred_boxes2 = pred_ctr_y - c_to_c_h
        pred_boxes3 = pred_ctr_x + c_to_c_w
        pred_boxes4 = pred_ctr_y + c_to_c_h
        return torch.stack((pred_boxes1, pred_boxes2, pred_boxes3, pred_boxes4), dim=2).flatten(1)

device = torch.device("cuda:0")
bbox_pred = nn.Conv2d(16, 3 * 4, 1).to(device).half()
features = torch.rand(2, 16, 8, 8, device=device).half()
ys, xs = torch.meshgrid(torch.arange(8.0), torch.arange(8.0), indexing="ij")
centers = torch.stack([xs, ys], dim=-1).reshape(-1, 1, 2) * 16 + 8
sizes = torch.tensor([[16.0, 16.0], [32.0, 16.0], [16.0, 32.0]])
anchors_one = torch.cat([centers - sizes / 2, centers + sizes / 2], dim=-1).reshape(-1, 4)
anchors = [anchors_one.to(device), anchors_one.to(device)]     # float32 anchors
box_coder = BoxCoder(weights=(1.0, 1.0, 1.0, 1.0))
'''
CELL = '''
pred_bbox_deltas = bbox_pred(features).permute(0, 2, 3, 1).reshape(-1, 4)
proposals = box_coder.decode(pred_bbox_deltas.detach(), anchors)
proposals = proposals.view(2, -1, 4)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
