"""Look-alike: YOLOv8-pose's keypoint loss keeps OKS sigmas from a float64 numpy array as a plain tensor attribute, created on the model's device.

Source: https://github.com/ultralytics/ultralytics/blob/main/ultralytics/utils/loss.py
`v8PoseLoss.__init__` takes `self.device = next(model.parameters()).device` and builds
`sigmas = torch.from_numpy(OKS_SIGMA).to(self.device)` (OKS_SIGMA is a float64 numpy array in
`ultralytics/utils/metrics.py`), then `KeypointLoss(sigmas=sigmas)` stores it as a plain attribute
(not a buffer). It is already on the model's device, and the float64 sigmas only promote the OKS
term, so the loss runs. Stand-in: `KeypointLoss` and the keypoint part of `v8PoseLoss` as in the
file (box assignment, BCE and DFL terms left out, targets already assigned); the model is a
minimal head on the GPU, simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

OKS_SIGMA = (
    np.array([0.26, 0.25, 0.25, 0.35, 0.35, 0.79, 0.79, 0.72, 0.72, 0.62, 0.62, 1.07, 1.07, 0.87, 0.87, 0.89, 0.89])
    / 10.0
)

class KeypointLoss(nn.Module):
    """Criterion class for computing keypoint losses."""

    def __init__(self, sigmas) -> None:
        super().__init__()
        self.sigmas = sigmas

    def forward(self, pred_kpts, gt_kpts, kpt_mask, area):
        d = (pred_kpts[..., 0] - gt_kpts[..., 0]).pow(2) + (pred_kpts[..., 1] - gt_kpts[..., 1]).pow(2)
        kpt_loss_factor = kpt_mask.shape[1] / (torch.sum(kpt_mask != 0, dim=1) + 1e-9)
        # e = d / (2 * (area * self.sigmas) ** 2 + 1e-9)  # from formula
        e = d / ((2 * self.sigmas).pow(2) * (area + 1e-9) * 2)  # from cocoeval
        return (kpt_loss_factor.view(-1, 1) * ((1 - torch.exp(-e)) * kpt_mask)).mean()

class Pose(nn.Module):
    def __init__(self, ch=32, kpt_shape=(17, 3)):
        super().__init__()
        self.kpt_shape = list(kpt_shape)
        self.cv4 = nn.Conv2d(ch, kpt_shape[0] * kpt_shape[1], 1)

    def forward(self, x):
        return self.cv4(x)

class PoseModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.ModuleList([nn.Conv2d(3, 32, 3, 2, 1), Pose(32)])

    def forward(self, x):
        for m in self.model:
            x = m(x)
        return x

class v8PoseLoss:
    def __init__(self, model):
        self.device = next(model.parameters()).device
        self.kpt_shape = model.model[-1].kpt_shape
        self.bce_pose = nn.BCEWithLogitsLoss()
        is_pose = self.kpt_shape == [17, 3]
        nkpt = self.kpt_shape[0]  # number of keypoints
        sigmas = torch.from_numpy(OKS_SIGMA).to(self.device) if is_pose else torch.ones(nkpt, device=self.device) / nkpt
        self.keypoint_loss = KeypointLoss(sigmas=sigmas)

    def keypoint_terms(self, pred_kpt, gt_kpt, area):
        kpt_mask = gt_kpt[..., 2] != 0
        kpts_loss = self.keypoint_loss(pred_kpt, gt_kpt, kpt_mask, area)
        kpts_obj_loss = self.bce_pose(pred_kpt[..., 2], kpt_mask.float())
        return kpts_loss, kpts_obj_loss

device = torch.device("meta")   # the GPU, simulated with meta
model = PoseModel().to(device)
criterion = v8PoseLoss(model)
imgs = torch.rand(2, 3, 64, 64).to(device)
gt_kpt = torch.rand(2 * 32 * 32, 17, 3).to(device)          # assigned targets for the foreground anchors
area = torch.rand(2 * 32 * 32, 1).to(device)
'''
CELL = '''
out = model(imgs)                                          # (B, 51, H, W)
pred_kpt = out.flatten(2).permute(0, 2, 1).reshape(-1, 17, 3)
kpts_loss, kpts_obj_loss = criterion.keypoint_terms(pred_kpt, gt_kpt, area)
loss = kpts_loss * 12.0 + kpts_obj_loss
loss.backward()
print(criterion.keypoint_loss.sigmas.dtype, loss.dtype, loss.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
