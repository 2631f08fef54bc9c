"""mmaction2 (0.x) BMN training step: the boundary-matching mask is a plain CPU attribute and the labels are built on the CPU, both moved in forward.

Source: https://github.com/open-mmlab/mmaction2/blob/0.x/mmaction/models/localizers/bmn.py
In mmaction2 0.x, `BMN.__init__` keeps `self.bm_mask = self._get_bm_mask()` as a plain tensor
attribute (not a buffer, so `model.cuda()` leaves it on the CPU), `forward` builds
`label_confidence/label_start/label_end` from the CPU `gt_bbox` with numpy in `generate_labels` and
moves them with `.to(raw_feature.device)`, and `forward_train` passes `self.bm_mask.to(
raw_feature.device)` to `BMNLoss`. A GPU training step runs. Stand-in: BMN at toy size (tscale 8,
`sample_mask` a random fixed Parameter instead of the interpolation mask), labels from a simplified
numpy IoU, BMNLoss with its TEM and PEM-classification terms (`max(torch.sum(pmask), 1)` written as
`torch.clamp(..., min=1)`); the GPU is played by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

def binary_logistic_regression_loss(reg_score, label, threshold=0.5, ratio_range=(1.05, 21), eps=1e-5):
    label = label.view(-1).to(reg_score.device)
    reg_score = reg_score.contiguous().view(-1)
    pmask = (label > threshold).float().to(reg_score.device)
    num_positive = torch.clamp(torch.sum(pmask), min=1)
    num_entries = len(label)
    ratio = torch.clamp(num_entries / num_positive, ratio_range[0], ratio_range[1])
    coef_0 = 0.5 * ratio / (ratio - 1)
    coef_1 = 0.5 * ratio
    loss = coef_1 * pmask * torch.log(reg_score + eps) + coef_0 * (1.0 - pmask) * torch.log(1.0 - reg_score + eps)
    return -torch.mean(loss)

class BMNLoss(nn.Module):
    @staticmethod
    def tem_loss(pred_start, pred_end, gt_start, gt_end):
        return binary_logistic_regression_loss(pred_start, gt_start) + binary_logistic_regression_loss(pred_end, gt_end)

    @staticmethod
    def pem_cls_loss(pred_score, gt_iou_map, mask, threshold=0.9, ratio_range=(1.05, 21), eps=1e-5):
        pmask = (gt_iou_map > threshold).float()
        nmask = (gt_iou_map <= threshold).float()
        nmask = nmask * mask
        num_positive = torch.clamp(torch.sum(pmask), min=1)
        num_entries = num_positive + torch.sum(nmask)
        ratio = torch.clamp(num_entries / num_positive, ratio_range[0], ratio_range[1])
        coef_0 = 0.5 * ratio / (ratio - 1)
        coef_1 = 0.5 * ratio
        loss_pos = coef_1 * torch.log(pred_score + eps) * pmask
        loss_neg = coef_0 * torch.log(1.0 - pred_score + eps) * nmask
        return -1 * torch.sum(loss_pos + loss_neg) / num_entries

    def forward(self, pred_bm, pred_start, pred_end, gt_iou_map, gt_start, gt_end, bm_mask):
        pred_bm_cls = pred_bm[:, 1]
        gt_iou_map = gt_iou_map * bm_mask
        pem_cls_loss = self.pem_cls_loss(pred_bm_cls, gt_iou_map, bm_mask)
        tem_loss = self.tem_loss(pred_start, pred_end, gt_start, gt_end)
        return tem_loss + pem_cls_loss, tem_loss, pem_cls_loss

class BMN(nn.Module):
    def __init__(self, temporal_dim=8, feat_dim=16, hidden_dim_1d=32, hidden_dim_2d=16, num_samples=4):
        super().__init__()
        self.tscale = temporal_dim
        self.num_samples = num_samples
        self.loss_cls = BMNLoss()
        self.x_1d_b = nn.Sequential(nn.Conv1d(feat_dim, hidden_dim_1d, 3, padding=1), nn.ReLU())
        self.x_1d_s = nn.Sequential(nn.Conv1d(hidden_dim_1d, 1, 1), nn.Sigmoid())
        self.x_1d_e = nn.Sequential(nn.Conv1d(hidden_dim_1d, 1, 1), nn.Sigmoid())
        self.x_1d_p = nn.Sequential(nn.Conv1d(hidden_dim_1d, hidden_dim_1d, 3, padding=1), nn.ReLU())
        self.x_3d_p = nn.Sequential(nn.Conv3d(hidden_dim_1d, hidden_dim_2d, (num_samples, 1, 1)), nn.ReLU())
        self.x_2d_p = nn.Sequential(nn.Conv2d(hidden_dim_2d, 2, 1), nn.Sigmoid())
        self.sample_mask = nn.Parameter(torch.rand(self.tscale, num_samples * self.tscale * self.tscale),
                                        requires_grad=False)
        self.bm_mask = self._get_bm_mask()

    def _get_bm_mask(self):
        bm_mask = []
        for idx in range(self.tscale):
            mask_vector = [1] * (self.tscale - idx) + [0] * idx
            bm_mask.append(mask_vector)
        bm_mask = torch.tensor(bm_mask, dtype=torch.float)
        return bm_mask

    def _boundary_matching_layer(self, x):
        input_size = x.size()
        out = torch.matmul(x, self.sample_mask).reshape(input_size[0], input_size[1], self.num_samples,
                                                         self.tscale, self.tscale)
        return out

    def _forward(self, x):
        base_feature = self.x_1d_b(x)
        start = self.x_1d_s(base_feature).squeeze(1)
        end = self.x_1d_e(base_feature).squeeze(1)
        confidence_map = self.x_1d_p(base_feature)
        confidence_map = self._boundary_matching_layer(confidence_map)
        confidence_map = self.x_3d_p(confidence_map).squeeze(2)
        confidence_map = self.x_2d_p(confidence_map)
        return confidence_map, start, end

    def generate_labels(self, gt_bbox):
        match_score_confidence_list, match_score_start_list, match_score_end_list = [], [], []
        anchors = (np.arange(self.tscale) + 0.5) / self.tscale
        for every_gt_bbox in gt_bbox:
            gt_iou_map = np.zeros((self.tscale, self.tscale))
            for d in range(self.tscale):
                for s in range(self.tscale):
                    st, en = s / self.tscale, min(1.0, (s + d + 1) / self.tscale)
                    inter = np.clip(np.minimum(en, every_gt_bbox[:, 1]) - np.maximum(st, every_gt_bbox[:, 0]), 0, None)
                    union = (en - st) + (every_gt_bbox[:, 1] - every_gt_bbox[:, 0]) - inter
                    gt_iou_map[d, s] = np.max(inter / union)
            match_score_start = [float(np.any(np.abs(anchors - t) < 1.0 / self.tscale)) for t in anchors]
            match_score_end = [float(np.any(np.abs(every_gt_bbox[:, 1] - t) < 1.0 / self.tscale)) for t in anchors]
            match_score_confidence_list.append(gt_iou_map)
            match_score_start_list.append(match_score_start)
            match_score_end_list.append(match_score_end)
        match_score_confidence_list = torch.Tensor(np.array(match_score_confidence_list))
        match_score_start_list = torch.Tensor(match_score_start_list)
        match_score_end_list = torch.Tensor(match_score_end_list)
        return match_score_confidence_list, match_score_start_list, match_score_end_list

    def forward_train(self, raw_feature, label_confidence, label_start, label_end):
        confidence_map, start, end = self._forward(raw_feature)
        loss = self.loss_cls(confidence_map, start, end, label_confidence, label_start, label_end,
                             self.bm_mask.to(raw_feature.device))
        return dict(loss=loss[0])

    def forward(self, raw_feature, gt_bbox=None, video_meta=None, return_loss=True):
        label_confidence, label_start, label_end = self.generate_labels(gt_bbox)
        device = raw_feature.device
        label_confidence = label_confidence.to(device)
        label_start = label_start.to(device)
        label_end = label_end.to(device)
        return self.forward_train(raw_feature, label_confidence, label_start, label_end)

device = torch.device("meta")    # the GPU, simulated with meta
model = BMN().to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

# one ActivityNet feature batch: features scattered to the GPU, gt_bbox stays a list of numpy arrays
raw_feature = torch.randn(2, 16, 8).to(device)
gt_bbox = [np.array([[0.1, 0.45]]), np.array([[0.3, 0.6], [0.7, 0.95]])]
'''
CELL = '''
model.train()
losses = model(raw_feature, gt_bbox=gt_bbox, return_loss=True)
optimizer.zero_grad()
losses['loss'].backward()
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
