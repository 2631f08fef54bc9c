"""mmdetection 1.x: `AnchorGenerator.grid_anchors` defaults to device='cuda', so CPU inference mixes CUDA anchors with CPU deltas.

Source: https://github.com/open-mmlab/mmdetection/pull/1478
"FIX: Pass device to grid_anchors and valid_flags": running a Cascade R-CNN on the CPU with
`return_loss=False` raised in `AnchorHead.get_bboxes`, because `grid_anchors(featmap_size, stride,
device='cuda')` is called without a device there and builds the anchors on the GPU while the
model, its scores and box deltas are on the CPU. The PR passes `device=cls_scores[i].device`.
Stand-in: an RPN-style AnchorHead (one conv, cls/reg convs, `get_bboxes`, `get_bboxes_single`,
`delta2bbox`) inside a two-level detector; no NMS, no RoI stages. The GPU is meta (the default 'cuda' is 'meta').
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class AnchorGenerator(object):
    def __init__(self, base_size, scales, ratios):
        self.base_size = base_size
        self.scales = torch.tensor(scales, dtype=torch.float32)
        self.ratios = torch.tensor(ratios, dtype=torch.float32)
        self.base_anchors = self.gen_base_anchors()

    def gen_base_anchors(self):
        w = h = self.base_size
        x_ctr, y_ctr = 0.5 * (w - 1), 0.5 * (h - 1)
        h_ratios = torch.sqrt(self.ratios)
        w_ratios = 1 / h_ratios
        ws = (w * w_ratios[:, None] * self.scales[None, :]).view(-1)
        hs = (h * h_ratios[:, None] * self.scales[None, :]).view(-1)
        return torch.stack([x_ctr - 0.5 * (ws - 1), y_ctr - 0.5 * (hs - 1),
                            x_ctr + 0.5 * (ws - 1), y_ctr + 0.5 * (hs - 1)], dim=-1)

    def _meshgrid(self, x, y):
        xx = x.repeat(len(y))
        yy = y.view(-1, 1).repeat(1, len(x)).view(-1)
        return xx, yy

    def grid_anchors(self, featmap_size, stride=16, device='meta'):     # mmdet 1.x: device='cuda'
        base_anchors = self.base_anchors.to(device)
        feat_h, feat_w = featmap_size
        shift_x = torch.arange(0, feat_w, device=device) * stride
        shift_y = torch.arange(0, feat_h, device=device) * stride
        shift_xx, shift_yy = self._meshgrid(shift_x, shift_y)
        shifts = torch.stack([shift_xx, shift_yy, shift_xx, shift_yy], dim=-1)
        shifts = shifts.type_as(base_anchors)
        all_anchors = base_anchors[None, :, :] + shifts[:, None, :]
        return all_anchors.view(-1, 4)

def delta2bbox(rois, deltas, means=(0., 0., 0., 0.), stds=(1., 1., 1., 1.), max_shape=None):
    means = deltas.new_tensor(means).repeat(1, deltas.size(1) // 4)
    stds = deltas.new_tensor(stds).repeat(1, deltas.size(1) // 4)
    denorm_deltas = deltas * stds + means
    dx, dy = denorm_deltas[:, 0::4], denorm_deltas[:, 1::4]
    dw, dh = denorm_deltas[:, 2::4], denorm_deltas[:, 3::4]
    px = ((rois[:, 0] + rois[:, 2]) * 0.5).unsqueeze(1).expand_as(dx)
    py = ((rois[:, 1] + rois[:, 3]) * 0.5).unsqueeze(1).expand_as(dy)
    pw = (rois[:, 2] - rois[:, 0] + 1.0).unsqueeze(1).expand_as(dw)
    ph = (rois[:, 3] - rois[:, 1] + 1.0).unsqueeze(1).expand_as(dh)
    gw, gh = pw * dw.exp(), ph * dh.exp()
    gx, gy = px + pw * dx, py + ph * dy
    return torch.stack([gx - gw * 0.5, gy - gh * 0.5, gx + gw * 0.5, gy + gh * 0.5], dim=-1).view_as(deltas)

class AnchorHead(nn.Module):
    def __init__(self, in_channels=16, anchor_scales=(8,), anchor_ratios=(0.5, 1.0, 2.0), anchor_strides=(4, 8)):
        super().__init__()
        self.anchor_strides = anchor_strides
        self.anchor_generators = [AnchorGenerator(s, anchor_scales, anchor_ratios) for s in anchor_strides]
        self.num_anchors = len(anchor_ratios) * len(anchor_scales)
        self.cls_out_channels = 1
        self.rpn_conv = nn.Conv2d(in_channels, in_channels, 3, padding=1)
        self.rpn_cls = nn.Conv2d(in_channels, self.num_anchors * self.cls_out_channels, 1)
        self.rpn_reg = nn.Conv2d(in_channels, self.num_anchors * 4, 1)

    def forward(self, feats):
        cls_scores, bbox_preds = [], []
        for x in feats:
            x = torch.relu(self.rpn_conv(x))
            cls_scores.append(self.rpn_cls(x))
            bbox_preds.append(self.rpn_reg(x))
        return cls_scores, bbox_preds

    def get_bboxes(self, cls_scores, bbox_preds, img_metas, cfg=None, rescale=False):
        num_levels = len(cls_scores)
        mlvl_anchors = [
            self.anchor_generators[i].grid_anchors(cls_scores[i].size()[-2:], self.anchor_strides[i])
            for i in range(num_levels)
        ]
        result_list = []
        for img_id in range(len(img_metas)):
            cls_score_list = [cls_scores[i][img_id].detach() for i in range(num_levels)]
            bbox_pred_list = [bbox_preds[i][img_id].detach() for i in range(num_levels)]
            result_list.append(self.get_bboxes_single(cls_score_list, bbox_pred_list, mlvl_anchors,
                                                      img_metas[img_id]['img_shape']))
        return result_list

    def get_bboxes_single(self, cls_scores, bbox_preds, mlvl_anchors, img_shape):
        mlvl_proposals = []
        for cls_score, bbox_pred, anchors in zip(cls_scores, bbox_preds, mlvl_anchors):
            scores = cls_score.permute(1, 2, 0).reshape(-1).sigmoid()
            bbox_pred = bbox_pred.permute(1, 2, 0).reshape(-1, 4)
            proposals = delta2bbox(anchors, bbox_pred, max_shape=img_shape)
            mlvl_proposals.append(torch.cat([proposals, scores.unsqueeze(-1)], dim=-1))
        return torch.cat(mlvl_proposals, 0)

class CascadeRCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.ModuleList([nn.Conv2d(3, 16, 3, 4, 1), nn.Conv2d(16, 16, 3, 2, 1)])
        self.rpn_head = AnchorHead()

    def extract_feat(self, img):
        c1 = self.backbone[0](img)
        return [c1, self.backbone[1](c1)]

    def simple_test(self, img, img_metas, rescale=False):
        x = self.extract_feat(img)
        rpn_outs = self.rpn_head(x)
        return self.rpn_head.get_bboxes(*rpn_outs, img_metas)

    def forward(self, img, img_metas, return_loss=True, **kwargs):
        if return_loss:
            raise NotImplementedError
        return self.simple_test(img[0], img_metas[0], **kwargs)

device = torch.device('cpu')                 # CUDA is present, but inference is run on the CPU
model = CascadeRCNN().to(device).eval()
img = torch.rand(1, 3, 64, 64)
img_metas = [{'img_shape': (64, 64, 3), 'scale_factor': 1.0}]
'''
CELL = '''
with torch.no_grad():
    result = model(return_loss=False, rescale=True, img=[img], img_metas=[img_metas])
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["model.rpn_head"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("self.anchor_generators[i].grid_anchors(cls_scores[i].size()[-2:], self.anchor_strides[i])",
                  "self.anchor_generators[i].grid_anchors(cls_scores[i].size()[-2:], self.anchor_strides[i], device=cls_scores[i].device)")
CLEAN = False
