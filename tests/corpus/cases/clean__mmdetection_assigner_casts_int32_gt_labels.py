"""Look-alike: int32 ground-truth labels from a custom dataset, cast by the assigner when gathered.

Source: https://github.com/open-mmlab/mmdetection/issues/6706
The fix the reporter applied in `MaxIoUAssigner.assign_wrt_overlaps`:
`assigned_labels[pos_inds] = gt_labels[assigned_gt_inds[pos_inds] - 1].long()`. With it, the
dataset may keep handing over int32 `gt_labels` (numpy int32 annotations) and the int64
`assigned_labels` buffer is filled without complaint: an int32 label tensor next to int64 buffers,
on purpose.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch

def bbox_overlaps(b1, b2):
    lt = torch.max(b1[:, None, :2], b2[None, :, :2])
    rb = torch.min(b1[:, None, 2:], b2[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    a1 = (b1[:, 2] - b1[:, 0]) * (b1[:, 3] - b1[:, 1])
    a2 = (b2[:, 2] - b2[:, 0]) * (b2[:, 3] - b2[:, 1])
    return inter / (a1[:, None] + a2[None, :] - inter)

class MaxIoUAssigner:
    def __init__(self, pos_iou_thr=0.5, neg_iou_thr=0.4):
        self.pos_iou_thr, self.neg_iou_thr = pos_iou_thr, neg_iou_thr

    def assign(self, bboxes, gt_bboxes, gt_labels=None):
        overlaps = bbox_overlaps(gt_bboxes, bboxes)
        num_bboxes = overlaps.size(1)
        assigned_gt_inds = overlaps.new_full((num_bboxes, ), -1, dtype=torch.long)
        max_overlaps, argmax_overlaps = overlaps.max(dim=0)
        assigned_gt_inds[(max_overlaps >= 0) & (max_overlaps < self.neg_iou_thr)] = 0
        pos = max_overlaps >= self.pos_iou_thr
        assigned_gt_inds[pos] = argmax_overlaps[pos] + 1
        assigned_labels = assigned_gt_inds.new_full((num_bboxes, ), -1)
        pos_inds = torch.nonzero(assigned_gt_inds > 0, as_tuple=False).squeeze()
        if pos_inds.numel() > 0:
            assigned_labels[pos_inds] = gt_labels[assigned_gt_inds[pos_inds] - 1].long()
        return assigned_gt_inds, assigned_labels

assigner = MaxIoUAssigner()
xy = torch.rand(200, 2) * 80
anchors = torch.cat([xy, xy + 20], dim=1)
ann = {"bboxes": np.array([[10, 10, 30, 30], [40, 45, 60, 66]], dtype=np.float32),
       "labels": np.array([3, 7], dtype=np.int32)}
gt_bboxes = torch.from_numpy(ann["bboxes"])
gt_labels = torch.from_numpy(ann["labels"])
'''
CELL = '''
assigned_gt_inds, assigned_labels = assigner.assign(anchors, gt_bboxes, gt_labels)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
