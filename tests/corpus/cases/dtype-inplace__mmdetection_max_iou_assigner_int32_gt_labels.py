"""mmdetection's MaxIoUAssigner writes int32 ground-truth labels into its int64 `assigned_labels`.

Source: https://github.com/open-mmlab/mmdetection/issues/6706
Training a detector on the user's own dataset failed in `assign_wrt_overlaps` at
`assigned_labels[pos_inds] = gt_labels[assigned_gt_inds[pos_inds] - 1]` with "Index put requires
the source and destination dtypes match, got Long for the destination and Int for the source":
`assigned_labels` is made with `new_full(..., -1, dtype=torch.long)`, while the user's annotations
gave int32 `gt_labels` (numpy int32 from the custom dataset). The user's fix: `.long()` on the
gathered labels. Stand-in: the assigner's `assign` / `assign_wrt_overlaps` with a plain IoU.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
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
    def __init__(self, pos_iou_thr=0.5, neg_iou_thr=0.4, min_pos_iou=0.0):
        self.pos_iou_thr, self.neg_iou_thr, self.min_pos_iou = pos_iou_thr, neg_iou_thr, min_pos_iou

    def assign(self, bboxes, gt_bboxes, gt_labels=None):
        overlaps = bbox_overlaps(gt_bboxes, bboxes)
        return self.assign_wrt_overlaps(overlaps, gt_labels)

    def assign_wrt_overlaps(self, overlaps, gt_labels=None):
        num_gts, num_bboxes = overlaps.size(0), overlaps.size(1)
        assigned_gt_inds = overlaps.new_full((num_bboxes, ), -1, dtype=torch.long)
        max_overlaps, argmax_overlaps = overlaps.max(dim=0)
        assigned_gt_inds[(max_overlaps >= 0) & (max_overlaps < self.neg_iou_thr)] = 0
        pos_inds = max_overlaps >= self.pos_iou_thr
        assigned_gt_inds[pos_inds] = argmax_overlaps[pos_inds] + 1
        if gt_labels is not None:
            assigned_labels = assigned_gt_inds.new_full((num_bboxes, ), -1)
            pos_inds = torch.nonzero(assigned_gt_inds > 0, as_tuple=False).squeeze()
            if pos_inds.numel() > 0:
                assigned_labels[pos_inds] = gt_labels[assigned_gt_inds[pos_inds] - 1]
        else:
            assigned_labels = None
        return num_gts, assigned_gt_inds, max_overlaps, assigned_labels

assigner = MaxIoUAssigner(pos_iou_thr=0.5, neg_iou_thr=0.4)
xy = torch.rand(200, 2) * 80
anchors = torch.cat([xy, xy + 20], dim=1)
# the custom dataset's annotations, as its pipeline hands them over
ann = {"bboxes": np.array([[10, 10, 30, 30], [40, 45, 60, 66]], dtype=np.float32),
       "labels": np.array([3, 7], dtype=np.int32)}
gt_bboxes = torch.from_numpy(ann["bboxes"])
gt_labels = torch.from_numpy(ann["labels"])
'''
CELL = '''
num_gts, assigned_gt_inds, max_overlaps, assigned_labels = assigner.assign(anchors, gt_bboxes, gt_labels)
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match, got Long for the destination and Int for the source"
CULPRITS = ["gt_labels"]
FIX = "namespace"
REFERENCE_FIX = '''
gt_labels = gt_labels.long()
'''
REFERENCE_EDIT = None
CLEAN = False
