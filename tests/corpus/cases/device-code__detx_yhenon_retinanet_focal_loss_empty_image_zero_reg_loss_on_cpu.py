"""pytorch-retinanet's FocalLoss appends a CPU `torch.tensor(0)` regression loss for an image without annotations.

Source: https://github.com/yhenon/pytorch-retinanet/issues/194
Training on the GPU fails now and then at `torch.stack(regression_losses).mean(dim=0, keepdim=True)` with
"All input tensors must be on the same device. Received cuda:0 and cpu". A commenter found it happens
when a batch holds an image with no annotations (a hard negative): the `bbox_annotation.shape[0] == 0`
branch of `FocalLoss.forward` appends `torch.tensor(0).float()` (CPU) next to the GPU losses of the
other images. Fix from the thread (merged as #220): `torch.tensor(0).float().cuda()` in that branch.
Stand-in: `FocalLoss`, `Anchors` and `calc_iou` follow the repo; ResNet/FPN reduced to one strided
conv level with the two heads. The GPU is meta: `.cuda()` is written `.to(DEVICE)`; DataParallel's
scatter (which moves `data['annot']` to the GPU) is an explicit `.to`; the collater's -1 padding is left
out (annotations are a per-image list) and the positive-anchor selection uses masks, since the
simulator cannot read tensor values.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

DEVICE = torch.device("meta")        # torch.cuda.is_available() -> .cuda()

def calc_iou(a, b):
    area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    iw = torch.min(torch.unsqueeze(a[:, 2], dim=1), b[:, 2]) - torch.max(torch.unsqueeze(a[:, 0], 1), b[:, 0])
    ih = torch.min(torch.unsqueeze(a[:, 3], dim=1), b[:, 3]) - torch.max(torch.unsqueeze(a[:, 1], 1), b[:, 1])
    iw = torch.clamp(iw, min=0)
    ih = torch.clamp(ih, min=0)
    ua = torch.unsqueeze((a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1]), dim=1) + area - iw * ih
    ua = torch.clamp(ua, min=1e-8)
    return iw * ih / ua

class FocalLoss(nn.Module):
    def forward(self, classifications, regressions, anchors, annotations):
        alpha = 0.25
        gamma = 2.0
        batch_size = classifications.shape[0]
        classification_losses = []
        regression_losses = []
        anchor = anchors[0, :, :]
        anchor_widths = anchor[:, 2] - anchor[:, 0]
        anchor_heights = anchor[:, 3] - anchor[:, 1]
        anchor_ctr_x = anchor[:, 0] + 0.5 * anchor_widths
        anchor_ctr_y = anchor[:, 1] + 0.5 * anchor_heights
        for j in range(batch_size):
            classification = classifications[j, :, :]
            regression = regressions[j, :, :]
            bbox_annotation = annotations[j]
            classification = torch.clamp(classification, 1e-4, 1.0 - 1e-4)
            if bbox_annotation.shape[0] == 0:
                alpha_factor = torch.ones(classification.shape).to(DEVICE) * alpha
                alpha_factor = 1. - alpha_factor
                focal_weight = classification
                focal_weight = alpha_factor * torch.pow(focal_weight, gamma)
                bce = -(torch.log(1.0 - classification))
                cls_loss = focal_weight * bce
                classification_losses.append(cls_loss.sum())
                regression_losses.append(torch.tensor(0).float())
                continue
            IoU = calc_iou(anchors[0, :, :], bbox_annotation[:, :4])
            IoU_max, IoU_argmax = torch.max(IoU, dim=1)
            targets = torch.ones(classification.shape) * -1
            targets = targets.to(DEVICE)
            targets = torch.where(torch.lt(IoU_max, 0.4)[:, None], torch.zeros_like(targets), targets)
            positive_indices = torch.ge(IoU_max, 0.5)
            num_positive_anchors = positive_indices.sum()
            assigned_annotations = bbox_annotation[IoU_argmax, :]
            one_hot = nn.functional.one_hot(assigned_annotations[:, 4].long(), classification.shape[1]).float()
            targets = torch.where(positive_indices[:, None], one_hot, targets)
            alpha_factor = torch.ones(targets.shape).to(DEVICE) * alpha
            alpha_factor = torch.where(torch.eq(targets, 1.), alpha_factor, 1. - alpha_factor)
            focal_weight = torch.where(torch.eq(targets, 1.), 1. - classification, classification)
            focal_weight = alpha_factor * torch.pow(focal_weight, gamma)
            bce = -(targets * torch.log(classification) + (1.0 - targets) * torch.log(1.0 - classification))
            cls_loss = focal_weight * bce
            cls_loss = torch.where(torch.ne(targets, -1.0), cls_loss, torch.zeros(cls_loss.shape).to(DEVICE))
            classification_losses.append(cls_loss.sum() / torch.clamp(num_positive_anchors.float(), min=1.0))
            gt_widths = torch.clamp(assigned_annotations[:, 2] - assigned_annotations[:, 0], min=1)
            gt_heights = torch.clamp(assigned_annotations[:, 3] - assigned_annotations[:, 1], min=1)
            gt_ctr_x = assigned_annotations[:, 0] + 0.5 * gt_widths
            gt_ctr_y = assigned_annotations[:, 1] + 0.5 * gt_heights
            targets = torch.stack(((gt_ctr_x - anchor_ctr_x) / anchor_widths,
                                   (gt_ctr_y - anchor_ctr_y) / anchor_heights,
                                   torch.log(gt_widths / anchor_widths),
                                   torch.log(gt_heights / anchor_heights))).t()
            targets = targets / torch.Tensor([[0.1, 0.1, 0.2, 0.2]]).to(DEVICE)
            regression_diff = torch.abs(targets - regression)
            regression_loss = torch.where(torch.le(regression_diff, 1.0 / 9.0),
                                          0.5 * 9.0 * torch.pow(regression_diff, 2),
                                          regression_diff - 0.5 / 9.0)
            regression_loss = (regression_loss.mean(1) * positive_indices).sum() / torch.clamp(num_positive_anchors.float(), min=1.0)
            regression_losses.append(regression_loss)
        return (torch.stack(classification_losses).mean(dim=0, keepdim=True),
                torch.stack(regression_losses).mean(dim=0, keepdim=True))

class Anchors(nn.Module):
    def __init__(self, stride=8, size=32):
        super().__init__()
        self.stride, self.size = stride, size
        self.ratios = np.array([0.5, 1, 2])

    def forward(self, image):
        h, w = image.shape[2] // self.stride, image.shape[3] // self.stride
        base = np.array([[-self.size * np.sqrt(1 / r), -self.size * np.sqrt(r),
                          self.size * np.sqrt(1 / r), self.size * np.sqrt(r)] for r in self.ratios]) / 2
        sx, sy = np.meshgrid((np.arange(w) + 0.5) * self.stride, (np.arange(h) + 0.5) * self.stride)
        shifts = np.stack([sx.ravel(), sy.ravel(), sx.ravel(), sy.ravel()], axis=1)
        all_anchors = (shifts[:, None, :] + base[None]).reshape(-1, 4)[None]
        return torch.from_numpy(all_anchors.astype(np.float32)).to(DEVICE)

class ResNet(nn.Module):
    def __init__(self, num_classes, num_anchors=3, feature_size=32):
        super().__init__()
        self.num_classes, self.num_anchors = num_classes, num_anchors
        self.backbone = nn.Sequential(nn.Conv2d(3, feature_size, 3, 8, 1), nn.ReLU())
        self.regressionModel = nn.Conv2d(feature_size, num_anchors * 4, 3, padding=1)
        self.classificationModel = nn.Conv2d(feature_size, num_anchors * num_classes, 3, padding=1)
        self.anchors = Anchors()
        self.focalLoss = FocalLoss()

    def forward(self, inputs):
        img_batch, annotations = inputs
        feature = self.backbone(img_batch)
        b = feature.shape[0]
        regression = self.regressionModel(feature).permute(0, 2, 3, 1).reshape(b, -1, 4)
        classification = torch.sigmoid(self.classificationModel(feature)).permute(0, 2, 3, 1).reshape(b, -1, self.num_classes)
        anchors = self.anchors(img_batch)
        return self.focalLoss(classification, regression, anchors, annotations)

def resnet50(num_classes):
    return ResNet(num_classes)

retinanet = resnet50(num_classes=4).to(DEVICE)
retinanet.train()
optimizer = torch.optim.Adam(retinanet.parameters(), lr=1e-5)
data = {'img': torch.rand(2, 3, 64, 64),
        'annot': [torch.tensor([[8., 8., 40., 44., 1.], [20., 4., 60., 30., 3.]]),
                  torch.zeros((0, 5))]}          # the second image is a hard negative
'''
CELL = '''
optimizer.zero_grad()
classification_loss, regression_loss = retinanet([data['img'].to(DEVICE).float(), [a.to(DEVICE) for a in data['annot']]])
classification_loss = classification_loss.mean()
regression_loss = regression_loss.mean()
loss = classification_loss + regression_loss
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device",
                "All input tensors must be on the same device")
CULPRITS = ["retinanet.focalLoss"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("regression_losses.append(torch.tensor(0).float())",
                  "regression_losses.append(torch.tensor(0).float().to(DEVICE))")
CLEAN = False
