"""PCDet `boxes_iou3d_gpu` under apex AMP: the custom CUDA op gets half boxes and a float32 output buffer, "expected scalar type Float but found Half".

Source: https://github.com/NVIDIA/apex/issues/849
The user trained a 3D detector with AMP; `iou3d_nms_cuda.boxes_overlap_bev_gpu(boxes_a_bev, boxes_b_bev,
overlaps_bev)` (a C++/CUDA extension called from Python) raised "expected scalar type Float but found
Half": the predicted boxes come out of the network in half, while `overlaps_bev` is allocated as a
float32 tensor and the kernel reads everything as float. Annotating `boxes_iou3d_gpu` with
`@amp.float_function` did not change anything; the answer was to cast inside: `boxes_a.float(),
boxes_b.float()`. Stand-ins: the extension's dtype check as a Python function computing a BEV overlap,
a linear box head; CPU autocast in bfloat16 plays CUDA AMP in half.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn

class iou3d_nms_cuda:                  # stand-in for the compiled extension
    @staticmethod
    def boxes_overlap_bev_gpu(boxes_a, boxes_b, ans_overlap):
        for t in (boxes_a, boxes_b):
            if t.dtype != torch.float32:
                names = {torch.float16: "Half", torch.bfloat16: "BFloat16", torch.float64: "Double"}
                raise RuntimeError(f"expected scalar type Float but found {names[t.dtype]}")
        lo = torch.maximum(boxes_a[:, None, :2], boxes_b[None, :, :2])
        hi = torch.minimum(boxes_a[:, None, 2:4], boxes_b[None, :, 2:4])
        ans_overlap.copy_((hi - lo).clamp(min=0).prod(dim=-1))

def boxes_iou3d_gpu(boxes_a, boxes_b):
    """boxes_a: (N, 7) [x, y, z, dx, dy, dz, heading]; boxes_b: (M, 7)"""
    boxes_a_bev = torch.cat([boxes_a[:, :2] - boxes_a[:, 3:5] / 2, boxes_a[:, :2] + boxes_a[:, 3:5] / 2], dim=1)
    boxes_b_bev = torch.cat([boxes_b[:, :2] - boxes_b[:, 3:5] / 2, boxes_b[:, :2] + boxes_b[:, 3:5] / 2], dim=1)
    overlaps_bev = torch.zeros((boxes_a.shape[0], boxes_b.shape[0]), dtype=torch.float32)
    iou3d_nms_cuda.boxes_overlap_bev_gpu(boxes_a_bev.contiguous(), boxes_b_bev.contiguous(), overlaps_bev)
    return overlaps_bev

box_head = nn.Linear(32, 7)
roi_features = torch.randn(6, 32)
gt_boxes = torch.tensor([[0.0, 0.0, 0.0, 4.0, 2.0, 1.5, 0.0],
                         [5.0, 1.0, 0.0, 4.0, 2.0, 1.5, 0.0]])
'''
CELL = '''
with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    pred_boxes = box_head(roi_features)
    iou = boxes_iou3d_gpu(pred_boxes, gt_boxes)
'''
EXPECT_ERROR = "expected scalar type Float but found"
CULPRITS = ["pred_boxes"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''    """boxes_a: (N, 7) [x, y, z, dx, dy, dz, heading]; boxes_b: (M, 7)"""''',
                  '''    """boxes_a: (N, 7) [x, y, z, dx, dy, dz, heading]; boxes_b: (M, 7)"""
    boxes_a, boxes_b = boxes_a.float(), boxes_b.float()''')
CLEAN = False
