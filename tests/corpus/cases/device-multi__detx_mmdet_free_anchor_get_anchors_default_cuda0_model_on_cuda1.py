"""mmdetection FreeAnchor RetinaNet trained on a non-zero GPU: `loss` builds its anchors on the default "cuda" device.

Source: https://github.com/open-mmlab/mmdetection/pull/7521
"RuntimeError: Expected all tensors to be on the same device but found at least two devices, cuda:0 and
cuda:2!" when training Free-anchor RetinaNet on a card other than 0: the PR (修复...anchor与pre_bboxes不在同一个
cuda device的bug) explains that the anchors computed in `FreeAnchorRetinaHead.loss` and the predicted boxes
are on different GPUs. `loss` calls `self.get_anchors(featmap_sizes, img_metas)` without a device, and
`AnchorHead.get_anchors(..., device='cuda')` then makes every anchor on the current device, cuda:0. The fix
passes the features' device (`device=cls_scores[0].device`), as the later code does.
Stand-in: RetinaHead reduced to one level of 1x1 cls/reg convs, `AnchorGenerator.grid_anchors`,
`DeltaXYWHBBoxCoder` and a simplified FreeAnchor loss (the sparse max over classes is a dense max; rows
are gathered with `index_select`, which the simulator supports). The model lives on cuda:1.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

def bbox_overlaps(bboxes1, bboxes2, eps=1e-6):
    area1 = (bboxes1[:, 2] - bboxes1[:, 0]) * (bboxes1[:, 3] - bboxes1[:, 1])
    area2 = (bboxes2[:, 2] - bboxes2[:, 0]) * (bboxes2[:, 3] - bboxes2[:, 1])
    lt = torch.max(bboxes1[:, None, :2], bboxes2[None, :, :2])
    rb = torch.min(bboxes1[:, None, 2:], bboxes2[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    overlap = wh[..., 0] * wh[..., 1]
    return overlap / (area1[:, None] + area2[None, :] - overlap).clamp(min=eps)

class DeltaXYWHBBoxCoder:
    def encode(self, bboxes, gt_bboxes):
        pw, ph = bboxes[..., 2] - bboxes[..., 0], bboxes[..., 3] - bboxes[..., 1]
        px, py = bboxes[..., 0] + 0.5 * pw, bboxes[..., 1] + 0.5 * ph
        gw, gh = gt_bboxes[..., 2] - gt_bboxes[..., 0], gt_bboxes[..., 3] - gt_bboxes[..., 1]
        gx, gy = gt_bboxes[..., 0] + 0.5 * gw, gt_bboxes[..., 1] + 0.5 * gh
        return torch.stack([(gx - px) / pw, (gy - py) / ph, torch.log(gw / pw), torch.log(gh / ph)], dim=-1)

    def decode(self, bboxes, pred_bboxes):
        pw, ph = bboxes[..., 2] - bboxes[..., 0], bboxes[..., 3] - bboxes[..., 1]
        px, py = bboxes[..., 0] + 0.5 * pw, bboxes[..., 1] + 0.5 * ph
        dx, dy, dw, dh = pred_bboxes.unbind(-1)
        gw, gh = pw * dw.clamp(max=4.1).exp(), ph * dh.clamp(max=4.1).exp()
        gx, gy = px + pw * dx, py + ph * dy
        return torch.stack([gx - gw * 0.5, gy - gh * 0.5, gx + gw * 0.5, gy + gh * 0.5], dim=-1)

class AnchorGenerator:
    def __init__(self, strides=(16,), scales=(4.0, 8.0)):
        self.strides, self.scales = strides, scales

    def grid_anchors(self, featmap_sizes, device='cuda'):
        multi_level_anchors = []
        for (h, w), stride in zip(featmap_sizes, self.strides):
            half = torch.linspace(self.scales[0], self.scales[-1], len(self.scales), device=device) * stride / 2
            base = torch.stack([-half, -half, half, half], dim=1)
            shift_x = (torch.arange(0, int(w), device=device) + 0.5) * stride
            shift_y = (torch.arange(0, int(h), device=device) + 0.5) * stride
            yy, xx = torch.meshgrid(shift_y, shift_x, indexing="ij")
            shifts = torch.stack([xx.reshape(-1), yy.reshape(-1), xx.reshape(-1), yy.reshape(-1)], dim=-1)
            multi_level_anchors.append((base[None, :, :] + shifts[:, None, :]).view(-1, 4))
        return multi_level_anchors

class FreeAnchorRetinaHead(nn.Module):
    def __init__(self, num_classes, in_channels, pre_anchor_topk=6, bbox_thr=0.6, gamma=2.0, alpha=0.5):
        super().__init__()
        self.num_anchors = 2
        self.cls_out_channels = num_classes
        self.retina_cls = nn.Conv2d(in_channels, self.num_anchors * num_classes, 1)
        self.retina_reg = nn.Conv2d(in_channels, self.num_anchors * 4, 1)
        self.anchor_generator = AnchorGenerator()
        self.bbox_coder = DeltaXYWHBBoxCoder()
        self.pre_anchor_topk, self.bbox_thr, self.gamma, self.alpha = pre_anchor_topk, bbox_thr, gamma, alpha

    def forward(self, feats):
        return [self.retina_cls(f) for f in feats], [self.retina_reg(f) for f in feats]

    def get_anchors(self, featmap_sizes, img_metas, device='cuda'):
        multi_level_anchors = self.anchor_generator.grid_anchors(featmap_sizes, device)
        anchor_list = [multi_level_anchors for _ in range(len(img_metas))]
        return anchor_list, None

    def loss(self, cls_scores, bbox_preds, gt_bboxes, gt_labels, img_metas):
        featmap_sizes = [featmap.size()[-2:] for featmap in cls_scores]
        anchor_list, _ = self.get_anchors(featmap_sizes, img_metas)
        anchors = [torch.cat(anchor) for anchor in anchor_list]
        cls_scores = torch.cat([c.permute(0, 2, 3, 1).reshape(c.size(0), -1, self.cls_out_channels) for c in cls_scores], 1)
        bbox_preds = torch.cat([b.permute(0, 2, 3, 1).reshape(b.size(0), -1, 4) for b in bbox_preds], 1)
        cls_prob = torch.sigmoid(cls_scores)
        box_prob, positive_losses, num_pos = [], [], 0
        for anchors_, gt_labels_, gt_bboxes_, cls_prob_, bbox_preds_ in zip(
                anchors, gt_labels, gt_bboxes, cls_prob.unbind(0), bbox_preds.unbind(0)):
            with torch.no_grad():
                pred_boxes = self.bbox_coder.decode(anchors_, bbox_preds_)
                object_box_iou = bbox_overlaps(gt_bboxes_, pred_boxes)
                t1 = self.bbox_thr
                t2 = object_box_iou.max(dim=1, keepdim=True).values.clamp(min=t1 + 1e-12)
                object_box_prob = ((object_box_iou - t1) / (t2 - t1)).clamp(min=0, max=1)
                image_box_prob = object_box_prob.max(dim=0).values[:, None].expand(-1, self.cls_out_channels)
                box_prob.append(image_box_prob)
            match_quality_matrix = bbox_overlaps(gt_bboxes_, anchors_)
            _, matched = torch.topk(match_quality_matrix, self.pre_anchor_topk, dim=1, sorted=False)
            n, k = matched.shape
            matched_cls_prob = torch.gather(
                cls_prob_.index_select(0, matched.reshape(-1)).view(n, k, -1), 2,
                gt_labels_.view(-1, 1, 1).repeat(1, k, 1)).squeeze(2)
            matched_anchors = anchors_.index_select(0, matched.reshape(-1)).view(n, k, 4)
            matched_object_targets = self.bbox_coder.encode(
                matched_anchors, gt_bboxes_.unsqueeze(dim=1).expand_as(matched_anchors))
            loss_bbox = F.smooth_l1_loss(bbox_preds_.index_select(0, matched.reshape(-1)).view(n, k, 4),
                                         matched_object_targets, beta=0.11, reduction='none').sum(-1)
            matched_box_prob = torch.exp(-loss_bbox)
            num_pos += len(gt_bboxes_)
            positive_losses.append(self.positive_bag_loss(matched_cls_prob, matched_box_prob))
        positive_loss = torch.cat(positive_losses).sum() / max(1, num_pos)
        box_prob = torch.stack(box_prob, dim=0)
        negative_loss = self.negative_bag_loss(cls_prob, box_prob).sum() / max(1, num_pos * self.pre_anchor_topk)
        return {'positive_bag_loss': positive_loss, 'negative_bag_loss': negative_loss}

    def positive_bag_loss(self, matched_cls_prob, matched_box_prob):
        matched_prob = matched_cls_prob * matched_box_prob
        weight = 1 / torch.clamp(1 - matched_prob, 1e-12, None)
        weight = weight / weight.sum(dim=1).unsqueeze(dim=-1)
        bag_prob = (weight * matched_prob).sum(dim=1)
        return self.alpha * F.binary_cross_entropy(bag_prob, torch.ones_like(bag_prob), reduction='none')

    def negative_bag_loss(self, cls_prob, box_prob):
        prob = cls_prob * (1 - box_prob)
        return (1 - self.alpha) * prob ** self.gamma * F.binary_cross_entropy(prob, torch.zeros_like(prob), reduction='none')

class RetinaNet(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.backbone = nn.Conv2d(3, 16, 16, 16)
        self.bbox_head = FreeAnchorRetinaHead(num_classes, 16)

    def forward(self, img, img_metas, gt_bboxes, gt_labels, return_loss=True):
        outs = self.bbox_head([self.backbone(img)])
        return self.bbox_head.loss(*outs, gt_bboxes, gt_labels, img_metas)

device = torch.device("cuda:1")                    # gpu_ids = [1]
model = RetinaNet(num_classes=3).to(device)
data = dict(img=torch.rand(2, 3, 128, 128).to(device),
            img_metas=[dict(img_shape=(128, 128, 3)), dict(img_shape=(128, 128, 3))],
            gt_bboxes=[torch.tensor([[10., 12., 60., 70.], [50., 40., 120., 100.]]).to(device),
                       torch.tensor([[30., 30., 90., 110.]]).to(device)],
            gt_labels=[torch.tensor([0, 2]).to(device), torch.tensor([1]).to(device)])
'''
CELL = '''
losses = model(**data)
loss = losses['positive_bag_loss'] + losses['negative_bag_loss']
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.bbox_head"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("anchor_list, _ = self.get_anchors(featmap_sizes, img_metas)",
                  "anchor_list, _ = self.get_anchors(featmap_sizes, img_metas, device=cls_scores[0].device)")
CLEAN = False
