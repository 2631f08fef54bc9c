"""MMRotate (oriented detection on DOTA aerial images): `multiclass_nms_rotated` builds its class labels on the CPU.

Source: https://github.com/open-mmlab/mmrotate/pull/873
Verifying the installation with `demo/image_demo.py` (`inference_detector(model, img)` with the
detector on cuda:0) failed in the rotated bbox head's post-processing: `multiclass_nms_rotated`
makes `labels = torch.arange(num_classes, dtype=torch.long)` without a device, then indexes it
with the GPU indices of the boxes that pass the score threshold (`labels[inds]`): "indices should
be either on cpu or on the same device as the indexed tensor (cpu)". The merged fix creates the
labels with `device=scores.device`.
Stand-ins: a tiny detector whose RoI head returns per-RoI class scores and rotated boxes, mmdet's
`inference_detector`, and mmrotate's `multiclass_nms_rotated`; the simulator cannot take
data-dependent `nonzero()` or `[]` on GPU tensors, so the boxes above the threshold are picked with
`topk` and gathered with `index_select` (the CPU labels indexed by GPU indices then raise the
device mismatch), and the rotated NMS op is left out.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
from torch import nn


class ConfigDict(dict):
    __getattr__ = dict.__getitem__


def multiclass_nms_rotated(multi_bboxes, multi_scores, score_thr, nms, max_num=-1,
                           score_factors=None, return_inds=False):
    num_classes = multi_scores.size(1) - 1
    # exclude background category
    if multi_bboxes.shape[1] > 5:
        bboxes = multi_bboxes.view(multi_scores.size(0), -1, 5)
    else:
        bboxes = multi_bboxes.unsqueeze(1).expand(multi_scores.size(0), num_classes, 5)
    scores = multi_scores.narrow(1, 0, num_classes)          # multi_scores[:, :-1]

    labels = torch.arange(num_classes, dtype=torch.long)
    labels = labels.view(1, -1).expand_as(scores)
    bboxes = bboxes.reshape(-1, 5)
    scores = scores.reshape(-1)
    labels = labels.reshape(-1)

    # remove low scoring boxes (valid_mask.nonzero() in mmrotate)
    inds = torch.topk(scores, k=max_num if max_num > 0 else scores.numel()).indices
    bboxes = bboxes.index_select(0, inds)
    scores = scores.index_select(0, inds)
    labels = labels.index_select(0, inds)                    # labels[inds]

    dets = torch.cat([bboxes, scores.unsqueeze(1)], 1)
    if return_inds:
        return dets, labels, inds
    return dets, labels


class RotatedBBoxHead(nn.Module):
    def __init__(self, in_channels=32, num_classes=15):
        super().__init__()
        self.num_classes = num_classes
        self.fc_cls = nn.Linear(in_channels, num_classes + 1)
        self.fc_reg = nn.Linear(in_channels, 5 * num_classes)

    def forward(self, roi_feats):
        return self.fc_cls(roi_feats), self.fc_reg(roi_feats)

    def get_bboxes(self, rois, cls_score, bbox_pred, cfg):
        scores = torch.softmax(cls_score, dim=-1)
        bboxes = bbox_pred                                   # delta2bbox(rois, bbox_pred) in mmrotate
        return multiclass_nms_rotated(bboxes, scores, cfg.score_thr, cfg.nms, cfg.max_per_img)


class OrientedRCNN(nn.Module):
    def __init__(self, num_classes=15):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 32, 3, stride=4, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.bbox_head = RotatedBBoxHead(32, num_classes)
        self.test_cfg = ConfigDict(score_thr=0.05, nms=ConfigDict(iou_thr=0.1), max_per_img=20)

    def simple_test(self, img):
        feats = self.backbone(img)                           # [1, 32, 4, 4]
        roi_feats = feats.flatten(2).transpose(1, 2).reshape(-1, 32)   # 16 RoIs
        cls_score, bbox_pred = self.bbox_head(roi_feats)
        return self.bbox_head.get_bboxes(None, cls_score, bbox_pred, self.test_cfg)


def init_detector(config=None, checkpoint=None, device="cuda:0"):
    return OrientedRCNN(num_classes=15).to(device).eval()


def inference_detector(model, img):
    device = next(model.parameters()).device
    img = img.to(device)
    with torch.no_grad():
        return model.simple_test(img)


model = init_detector("oriented_rcnn_r50_fpn_1x_dota_le90.py", "oriented_rcnn_r50_fpn_1x_dota_le90.pth", device="cuda:0")
img = torch.rand(1, 3, 128, 128)                         # demo/demo.jpg after the test pipeline
'''
CELL = '''
result = inference_detector(model, img)
'''
EXPECT_ERROR = ("indices should be either on cpu or on the same device", "Expected all tensors to be on the same device")
CULPRITS = ["multiclass_nms_rotated"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("labels = torch.arange(num_classes, dtype=torch.long)",
                  "labels = torch.arange(num_classes, dtype=torch.long, device=scores.device)")
CLEAN = False
