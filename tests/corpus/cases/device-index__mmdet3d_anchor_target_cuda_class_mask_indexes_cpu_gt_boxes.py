"""mmdetection3d PointPillars training: a cuda per-class mask slices the CPU-held 3D gt boxes.

Source: https://github.com/open-mmlab/mmdetection3d/pull/2348
Training `hv_pointpillars_secfpn_6x8_160e_kitti-3d-3class.py` failed in
`train_mixins.anchor_target_3d_single` at `assigner, current_anchors, gt_bboxes[gt_per_cls, :]`
(`base_box3d.py`: `b = self.tensor[item]`) with "RuntimeError: indices should be either on cpu or
on the same device as the indexed tensor (cpu)": `gt_labels` are on the GPU, so
`gt_per_cls = (gt_labels == i)` is a cuda mask, while the `LiDARInstance3DBoxes` were left on the
CPU. Stand-ins: the box structure reduced to `.tensor`/`__getitem__`/`.to`, the MaxIoUAssigner to
a nearest-BEV overlap argmax. Simulated with meta as the accelerator (the index op itself only
fails on a real GPU; in the simulation the next op that meets the anchors does).
"""

SIM = "meta"
FAMILY = "device-index"
SETUP = '''
import torch
import torch.fx.experimental._config as _fx_config
_fx_config.meta_nonzero_assume_all_nonzero = True      # simulation only: bool-mask indexing on meta

class LiDARInstance3DBoxes:
    """Stand-in for mmdet3d's BaseInstance3DBoxes: (x, y, z, dx, dy, dz, yaw) rows."""
    def __init__(self, tensor, box_dim=7):
        self.tensor = tensor
        self.box_dim = box_dim

    def __getitem__(self, item):
        original_type = type(self)
        if isinstance(item, int):
            return original_type(self.tensor[item].view(1, -1), box_dim=self.box_dim)
        b = self.tensor[item]
        return original_type(b, box_dim=self.box_dim)

    def to(self, device):
        return type(self)(self.tensor.to(device), box_dim=self.box_dim)

    @property
    def bev(self):
        return self.tensor[:, [0, 1, 3, 4, 6]]

def bbox_overlaps_nearest_3d(bboxes1, bboxes2):
    """Axis-aligned BEV IoU of (N, 7) and (M, 7) boxes."""
    def corners(b):
        return torch.stack([b[:, 0] - b[:, 3] / 2, b[:, 1] - b[:, 4] / 2,
                            b[:, 0] + b[:, 3] / 2, b[:, 1] + b[:, 4] / 2], dim=1)
    a, b = corners(bboxes1), corners(bboxes2)
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    area_a = (a[:, 2:] - a[:, :2]).prod(-1)
    area_b = (b[:, 2:] - b[:, :2]).prod(-1)
    return inter / (area_a[:, None] + area_b[None, :] - inter)

class MaxIoUAssigner:
    def __init__(self, pos_iou_thr=0.6, neg_iou_thr=0.45):
        self.pos_iou_thr, self.neg_iou_thr = pos_iou_thr, neg_iou_thr

    def assign(self, anchors, gt_bboxes, gt_labels):
        overlaps = bbox_overlaps_nearest_3d(gt_bboxes, anchors)     # (num_gt, num_anchors)
        max_overlaps, argmax_overlaps = overlaps.max(dim=0)
        return max_overlaps, argmax_overlaps, gt_labels

class Anchor3DHead:
    box_code_size = 7
    assign_per_class = True

    def __init__(self, num_classes=3):
        self.bbox_assigner = [MaxIoUAssigner() for _ in range(num_classes)]

    def anchor_target_single_assigner(self, assigner, anchors, gt_bboxes, gt_bboxes_ignore,
                                      gt_labels, input_meta, num_classes=1, sampling=True):
        return assigner.assign(anchors, gt_bboxes.tensor, gt_labels)

    def anchor_target_3d_single(self, anchors, gt_bboxes, gt_bboxes_ignore, gt_labels,
                                input_meta, label_channels=1, num_classes=1, sampling=True):
        targets = []
        for i, assigner in enumerate(self.bbox_assigner):
            current_anchors = anchors[..., i, :, :].reshape(-1, self.box_code_size)
            if self.assign_per_class:
                gt_per_cls = (gt_labels == i)
                anchor_targets = self.anchor_target_single_assigner(
                    assigner, current_anchors, gt_bboxes[gt_per_cls, :],
                    gt_bboxes_ignore, gt_labels[gt_per_cls], input_meta,
                    num_classes, sampling)
            targets.append(anchor_targets)
        return targets

device = torch.device("meta")            # cuda:0 in the report
bbox_head = Anchor3DHead(num_classes=3)
# anchors: (1, H, W, num_sizes=3, num_rots=2, 7) generated on the feature maps' device
anchors = torch.rand(1, 20, 16, 3, 2, 7, device=device) * 10
# one KITTI sample after DefaultFormatBundle3D: the box structure stays on the CPU,
# the labels are moved to the GPU with the rest of the batch
gt_bboxes = LiDARInstance3DBoxes(torch.rand(6, 7) * 10)
gt_labels = torch.tensor([0, 2, 1, 0, 1, 2]).to(device)
input_meta = {"box_type_3d": LiDARInstance3DBoxes}
'''
CELL = '''
targets = bbox_head.anchor_target_3d_single(anchors, gt_bboxes, None, gt_labels, input_meta, num_classes=3)
'''
EXPECT_ERROR = ("indices should be either on cpu or on the same device",
                "is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["gt_bboxes"]
FIX = "namespace"
REFERENCE_FIX = '''
gt_bboxes = gt_bboxes.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
