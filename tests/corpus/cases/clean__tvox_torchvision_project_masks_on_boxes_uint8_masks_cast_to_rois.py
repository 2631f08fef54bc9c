"""Look-alike: Mask R-CNN's `project_masks_on_boxes` feeds uint8 gt masks and int64 matched ids into float roi_align.

Source: https://github.com/pytorch/vision/blob/main/torchvision/models/detection/roi_heads.py
Fine-tuning datasets return `masks` as uint8 (`torch.as_tensor(masks, dtype=torch.uint8)`) and the
box matcher yields int64 `matched_idxs`; the positive proposals are float32. In
`project_masks_on_boxes`, `matched_idxs.to(boxes)` and `gt_masks[:, None].to(rois)` cast both to the
rois' dtype (and device) before `roi_align`, and `maskrcnn_loss` indexes the logits with int64
labels before `binary_cross_entropy_with_logits` against the float targets. Nothing is mismatched.
Stand-in: `project_masks_on_boxes` and `maskrcnn_loss` as in torchvision (positive-proposal
selection done beforehand, `index_select`/`gather` for the advanced-index gathers); `roi_align` is reduced to a
bilinear resize of each roi's mask.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F

def roi_align(input, rois, output_size, spatial_scale=1.0):
    """Stand-in for the C++ kernel: crop-size-weighted bilinear resize of each roi's image."""
    crops = input.index_select(0, rois[:, 0].long())
    scale = (rois[:, 3:] - rois[:, 1:3]).mean(1) * spatial_scale / input.shape[-1]
    return F.interpolate(crops, size=output_size, mode="bilinear", align_corners=False) * scale[:, None, None, None]

def project_masks_on_boxes(gt_masks, boxes, matched_idxs, M):
    matched_idxs = matched_idxs.to(boxes)
    rois = torch.cat([matched_idxs[:, None], boxes], dim=1)
    gt_masks = gt_masks[:, None].to(rois)
    return roi_align(gt_masks, rois, (M, M), 1.0)[:, 0]

def maskrcnn_loss(mask_logits, proposals, gt_masks, gt_labels, mask_matched_idxs):
    discretization_size = mask_logits.shape[-1]
    labels = [gt_label.index_select(0, idxs) for gt_label, idxs in zip(gt_labels, mask_matched_idxs)]
    mask_targets = [
        project_masks_on_boxes(m, p, i, discretization_size) for m, p, i in zip(gt_masks, proposals, mask_matched_idxs)
    ]
    labels = torch.cat(labels, dim=0)
    mask_targets = torch.cat(mask_targets, dim=0)
    M = discretization_size
    picked = mask_logits.gather(1, labels.view(-1, 1, 1, 1).expand(-1, 1, M, M))[:, 0]
    return F.binary_cross_entropy_with_logits(picked, mask_targets)

device = torch.device("cuda:0")
mask_head = torch.nn.Conv2d(8, 3, 1).to(device)
mask_features = torch.rand(4, 8, 14, 14, device=device)
targets = [{"masks": torch.randint(0, 2, (2, 64, 64), dtype=torch.uint8), "labels": torch.tensor([1, 2])},
           {"masks": torch.randint(0, 2, (1, 64, 64), dtype=torch.uint8), "labels": torch.tensor([2])}]
targets = [{k: v.to(device) for k, v in t.items()} for t in targets]
pos_proposals = [torch.tensor([[2.0, 3.0, 30.0, 40.0], [10.0, 12.0, 50.0, 60.0]], device=device),
                 torch.tensor([[5.0, 5.0, 45.0, 35.0], [0.0, 8.0, 20.0, 28.0]], device=device)]
pos_matched_idxs = [torch.tensor([0, 1], device=device), torch.tensor([0, 0], device=device)]
'''
CELL = '''
mask_logits = mask_head(mask_features)
gt_masks = [t["masks"] for t in targets]
gt_labels = [t["labels"] for t in targets]
loss_mask = maskrcnn_loss(mask_logits, pos_proposals, gt_masks, gt_labels, pos_matched_idxs)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
