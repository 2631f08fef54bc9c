"""Look-alike: a Dataset returns float32 numpy arrays; the DataLoader collates them into CPU tensors and the loop moves the image.

Source: https://github.com/Elody-07/AWR-Adaptive-Weighting-Regression/issues/4
The author's answer: `__getitem__` returns numpy arrays cast with `.astype(np.float32)` (image,
joints, center, the affine matrix `M`, `cube`) and `torch.utils.data.DataLoader` converts them to
tensors; the training code then does `input = img.cuda()` while `M` and `cube` stay on the CPU for
the numpy post-processing. CPU-side metadata beside a GPU model is deliberate here. Stand-ins:
a depth-image dataset (collated by hand, as default_collate does: stack, then from_numpy) and a small regression net on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.utils.data import Dataset

class HandDataset(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        img = np.random.rand(32, 32)
        jt_xyz = np.random.rand(14, 3)
        jt_uvd = np.random.rand(14, 3)
        center_xyz = np.random.rand(3)
        M = np.eye(3)
        cube = np.array([250.0, 250.0, 250.0])
        return (img[np.newaxis, :].astype(np.float32), jt_xyz.astype(np.float32), jt_uvd.astype(np.float32),
                center_xyz.astype(np.float32), M.astype(np.float32), cube.astype(np.float32))

class AWRNet(nn.Module):
    def __init__(self, joint_num=14):
        super().__init__()
        self.backbone = nn.Sequential(nn.Flatten(), nn.Linear(32 * 32, 64), nn.ReLU())
        self.reg = nn.Linear(64, joint_num * 3)

    def forward(self, x):
        return self.reg(self.backbone(x)).view(x.shape[0], -1, 3)

device = torch.device("cuda:0")
net = AWRNet().to(device)
criterion = nn.SmoothL1Loss()
dataset = HandDataset()
samples = [dataset[i] for i in range(2)]           # what DataLoader's default_collate receives
img, jt_xyz_gt, jt_uvd_gt, center_xyz, M, cube = (torch.from_numpy(np.stack(f)) for f in zip(*samples))
'''
CELL = '''
input = img.to(device)
jt_uvd_gt = jt_uvd_gt.to(device)
jt_uvd_pred = net(input)
loss = criterion(jt_uvd_pred, jt_uvd_gt)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
