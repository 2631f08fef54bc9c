"""RF-DETR with `use_position_supervised_loss=True` under bf16 AMP: float32 IoUs are index-put into bf16 class targets.

Source: https://github.com/roboflow/rf-detr/issues/446
Training with `use_position_supervised_loss` on an L4 (bf16 autocast) fails in `SetCriterion.loss_labels`
with "Index put requires the source and destination dtypes match, got BFloat16 for the destination and
Float for the source.": `cls_iou_func_targets` is made with `dtype=src_logits.dtype` (bf16 under
autocast) while `pos_ious_func` comes from `box_iou` of the detached bf16 predicted boxes and the float32
target boxes, so it is float32. The fix (PR #447, by the reporter) casts both to float before
`cls_iou_func_targets[pos_ind] = pos_ious_func`.
Stand-in: LWDETR reduced to query embeddings and the class/box heads over a pooled feature;
`HungarianMatcher` by a fixed assignment (scipy's solver is not needed to show the bug);
`SetCriterion` keeps `loss_labels` (position-supervised branch), `loss_boxes` and
`_get_src_permutation_idx`. CPU bf16 autocast stands for the CUDA one.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

def box_cxcywh_to_xyxy(x):
    x_c, y_c, w, h = x.unbind(-1)
    return torch.stack([(x_c - 0.5 * w), (y_c - 0.5 * h), (x_c + 0.5 * w), (y_c + 0.5 * h)], dim=-1)

def box_area(boxes):
    return (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])

def box_iou(boxes1, boxes2):
    area1, area2 = box_area(boxes1), box_area(boxes2)
    lt = torch.max(boxes1[:, None, :2], boxes2[:, :2])
    rb = torch.min(boxes1[:, None, 2:], boxes2[:, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[:, :, 0] * wh[:, :, 1]
    union = area1[:, None] + area2 - inter
    return inter / union, union

def position_supervised_loss(inputs, targets, num_boxes, alpha=0.25, gamma=2):
    prob = inputs.sigmoid()
    ce_loss = F.binary_cross_entropy_with_logits(inputs, targets, reduction="none")
    loss = ce_loss * (torch.abs(targets - prob) ** gamma)
    if alpha >= 0:
        alpha_t = alpha * (targets > 0.0).float() + (1 - alpha) * (targets <= 0.0).float()
        loss = alpha_t * loss
    return loss.mean(1).sum() / num_boxes

class HungarianMatcher(nn.Module):
    @torch.no_grad()
    def forward(self, outputs, targets):
        # scipy.optimize.linear_sum_assignment on the cost matrix; a fixed assignment here
        return [(torch.arange(len(t["labels"])), torch.arange(len(t["labels"]))) for t in targets]

class SetCriterion(nn.Module):
    def __init__(self, num_classes, matcher, focal_alpha=0.25, use_position_supervised_loss=True):
        super().__init__()
        self.num_classes, self.matcher, self.focal_alpha = num_classes, matcher, focal_alpha
        self.use_position_supervised_loss = use_position_supervised_loss

    def _get_src_permutation_idx(self, indices):
        batch_idx = torch.cat([torch.full_like(src, i) for i, (src, _) in enumerate(indices)])
        src_idx = torch.cat([src for (src, _) in indices])
        return batch_idx, src_idx

    def loss_labels(self, outputs, targets, indices, num_boxes):
        src_logits = outputs['pred_logits']
        idx = self._get_src_permutation_idx(indices)
        target_classes_o = torch.cat([t["labels"][J] for t, (_, J) in zip(targets, indices)])
        if self.use_position_supervised_loss:
            src_boxes = outputs['pred_boxes'][idx]
            target_boxes = torch.cat([t['boxes'][i] for t, (_, i) in zip(targets, indices)], dim=0)
            iou_targets = torch.diag(box_iou(box_cxcywh_to_xyxy(src_boxes.detach()),
                                             box_cxcywh_to_xyxy(target_boxes))[0])
            pos_ious = iou_targets.clone().detach()
            pos_ious_func = pos_ious
            cls_iou_func_targets = torch.zeros((src_logits.shape[0], src_logits.shape[1], self.num_classes),
                                               dtype=src_logits.dtype, device=src_logits.device)
            pos_ind = [id for id in idx]
            pos_ind.append(target_classes_o)
            cls_iou_func_targets[pos_ind] = pos_ious_func
            norm_cls_iou_func_targets = cls_iou_func_targets \\
                / (cls_iou_func_targets.view(cls_iou_func_targets.shape[0], -1, 1).amax(1, True) + 1e-8)
            loss_ce = position_supervised_loss(src_logits, norm_cls_iou_func_targets, num_boxes,
                                               alpha=self.focal_alpha, gamma=2) * src_logits.shape[1]
        return {'loss_ce': loss_ce}

    def loss_boxes(self, outputs, targets, indices, num_boxes):
        idx = self._get_src_permutation_idx(indices)
        src_boxes = outputs['pred_boxes'][idx]
        target_boxes = torch.cat([t['boxes'][i] for t, (_, i) in zip(targets, indices)], dim=0)
        return {'loss_bbox': F.l1_loss(src_boxes, target_boxes, reduction='none').sum() / num_boxes}

    def forward(self, outputs, targets):
        indices = self.matcher(outputs, targets)
        num_boxes = max(sum(len(t["labels"]) for t in targets), 1)
        losses = {}
        losses.update(self.loss_labels(outputs, targets, indices, num_boxes))
        losses.update(self.loss_boxes(outputs, targets, indices, num_boxes))
        return losses

class LWDETR(nn.Module):
    def __init__(self, num_classes=4, num_queries=12, hidden_dim=32):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, hidden_dim, 8, 8), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.query_feat = nn.Embedding(num_queries, hidden_dim)
        self.class_embed = nn.Linear(hidden_dim, num_classes)
        self.bbox_embed = nn.Linear(hidden_dim, 4)

    def forward(self, samples):
        memory = self.backbone(samples)
        hs = self.query_feat.weight[None] + memory[:, None]
        return {'pred_logits': self.class_embed(hs), 'pred_boxes': self.bbox_embed(hs).sigmoid()}

torch.manual_seed(0)
model = LWDETR(num_classes=4)
criterion = SetCriterion(num_classes=4, matcher=HungarianMatcher(), use_position_supervised_loss=True)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
samples = torch.rand(2, 3, 64, 64)
targets = [{'labels': torch.tensor([1, 3]), 'boxes': torch.tensor([[0.3, 0.3, 0.2, 0.2], [0.6, 0.5, 0.3, 0.4]])},
           {'labels': torch.tensor([0]), 'boxes': torch.tensor([[0.5, 0.5, 0.4, 0.4]])}]
'''
CELL = '''
with torch.autocast("cpu", dtype=torch.bfloat16):     # amp with bf16 on the L4
    outputs = model(samples)
    loss_dict = criterion(outputs, targets)
    losses = sum(loss_dict.values())
optimizer.zero_grad()
losses.backward()
optimizer.step()
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["criterion"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            cls_iou_func_targets[pos_ind] = pos_ious_func\n",
                  "            cls_iou_func_targets = cls_iou_func_targets.float()\n"
                  "            pos_ious_func = pos_ious_func.float()\n"
                  "            cls_iou_func_targets[pos_ind] = pos_ious_func\n")
CLEAN = False
