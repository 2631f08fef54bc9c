"""LCCNet `val()` accumulates the translation error into a CPU scalar while predictions are on the GPU.

Source: https://github.com/IIPCVLAB/LCCNet/pull/4
"fix val tensor device bug": in `train_with_sacred.py`, `val()` runs the LiDAR-camera calibration
network on the GPU (rgb / projected-lidar inputs, `sample['tr_error']`, `sample['rot_error']` are all
`.cuda()`), then sets `total_trasl_error = torch.tensor(0.0)` -- a CPU tensor -- and does
`total_trasl_error += torch.norm(target_transl[j] - transl_err[j]) * 100.` with a CUDA norm, which
fails because `total_trasl_error` and `target_transl` (transl_err) are on different devices. The fix
creates the accumulator on the target's device.
Stand-ins: LCCNet (PWC-style correlation network) replaced by a small conv + linear regressor with
the same two outputs (translation 3, unit quaternion 4); `ProposedLoss` and `quaternion_distance`
written in plain torch; the `.item()` calls on the returned errors are left to the caller (the
simulator cannot read values); `@ex.capture` (sacred) dropped.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

class LCCNet(nn.Module):
    def __init__(self, input_size):
        super().__init__()
        self.conv_rgb = nn.Conv2d(3, 8, 3, stride=4, padding=1)
        self.conv_lidar = nn.Conv2d(1, 8, 3, stride=4, padding=1)
        self.fc1 = nn.Linear(16, 64)
        self.fc1_trasl = nn.Linear(64, 3)
        self.fc1_rot = nn.Linear(64, 4)

    def forward(self, rgb, lidar):
        x = torch.cat([self.conv_rgb(rgb), self.conv_lidar(lidar)], 1).mean((2, 3))
        x = F.leaky_relu(self.fc1(x))
        transl = self.fc1_trasl(x)
        rot = F.normalize(self.fc1_rot(x), dim=1)
        return transl, rot

class ProposedLoss(nn.Module):
    def __init__(self, rescale_trans, rescale_rot):
        super().__init__()
        self.rescale_trans = rescale_trans
        self.rescale_rot = rescale_rot
        self.transl_loss = nn.SmoothL1Loss(reduction='none')

    def forward(self, target_transl, target_rot, transl_err, rot_err):
        loss_transl = self.transl_loss(transl_err, target_transl).sum(1).mean() * 100
        loss_rot = (1 - (rot_err * target_rot).sum(1).abs()).mean()
        total_loss = self.rescale_trans * loss_transl + self.rescale_rot * loss_rot
        return {'total_loss': total_loss, 'transl_loss': loss_transl, 'rot_loss': loss_rot}

def quaternion_distance(q, r, device):
    dot = (q * r).sum(1).abs().clamp(max=1.0)
    return 2 * torch.acos(dot)

def val(model, rgb_img, refl_img, target_transl, target_rot, loss_fn, point_clouds, loss):
    model.eval()

    # Run model
    with torch.no_grad():
        transl_err, rot_err = model(rgb_img, refl_img)

    if loss == 'points_distance' or loss == 'combined':
        losses = loss_fn(point_clouds, target_transl, target_rot, transl_err, rot_err)
    else:
        losses = loss_fn(target_transl, target_rot, transl_err, rot_err)

    total_trasl_error = torch.tensor(0.0)
    total_rot_error = quaternion_distance(target_rot, rot_err, target_rot.device)
    total_rot_error = total_rot_error * 180. / math.pi
    for j in range(rgb_img.shape[0]):
        total_trasl_error += torch.norm(target_transl[j] - transl_err[j]) * 100.

    return losses, total_trasl_error, total_rot_error.sum(), rot_err, transl_err

model = LCCNet((256, 512))
model = nn.DataParallel(model)
model = model.to("cuda:0")                 # model.cuda()
loss_fn = ProposedLoss(2., 1.)

batch_size = 2
sample = {'tr_error': torch.rand(batch_size, 3) * 3 - 1.5,
          'rot_error': F.normalize(torch.rand(batch_size, 4), dim=1),
          'point_cloud': [torch.rand(4, 3000) for _ in range(batch_size)]}
sample['tr_error'] = sample['tr_error'].to("cuda:0")
sample['rot_error'] = sample['rot_error'].to("cuda:0")
rgb_input = torch.rand(batch_size, 3, 256, 512, device="cuda:0")
lidar_input = torch.rand(batch_size, 1, 256, 512, device="cuda:0")
'''
CELL = '''
loss, trasl_e, rot_e, R_predicted, T_predicted = val(model, rgb_input, lidar_input,
                                                     sample['tr_error'], sample['rot_error'],
                                                     loss_fn, sample['point_cloud'], 'simple')
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device", "wrapped to wrong device")
CULPRITS = ["val"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("total_trasl_error = torch.tensor(0.0)",
                  "total_trasl_error = torch.tensor(0.0, device=target_transl.device)")
CLEAN = False
