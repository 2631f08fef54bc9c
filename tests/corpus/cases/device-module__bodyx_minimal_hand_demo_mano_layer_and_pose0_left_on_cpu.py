"""Minimal-Hand demo: the manopth layer `mano` and the identity pose `pose0` stay on the CPU while manopth moves the projected rotations to the GPU.

Source: https://github.com/MengHao666/Minimal-Hand-pytorch/issues/11
"error in running demo.py" at `hand_verts, j3d_recon = mano(pose0, shape.float())` (same traceback
in #22/#64: `torch.matmul(self.th_posedirs, th_pose_map.transpose(0, 1))`, mat2 on CUDA). The demo
builds `mano = manolayer.ManoLayer(..., use_pca=False, root_rot_mode='rotmat',
joint_rot_mode='rotmat')` and `pose0 = torch.eye(3).repeat(1, 16, 1, 1)` on the CPU; manopth's
`batch_rotprojs` ends with `.cuda()`, so the pose map reaches the GPU while the layer's buffers do
not. The thread's fix: `pose = pose.to(device)`, `shape = shape.to(device)`, `mano = mano.to(device)`.
Stand-in: a reduced ManoLayer with random buffers; `.cuda()` is written `.to("cuda:0")`.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

def batch_rotprojs(batches_rotmats):          # manopth/rotproj.py (installed package)
    proj_rotmats = []
    for batch_rotmats in batches_rotmats:
        proj_batch_rotmats = []
        for rotmat in batch_rotmats:
            U, S, V = torch.svd(rotmat.cpu())
            rotmat = torch.matmul(U, V.transpose(0, 1))
            rotmat = rotmat.to("cuda:0")       # rotmat.cuda()
            proj_batch_rotmats.append(rotmat)
        proj_rotmats.append(torch.stack(proj_batch_rotmats))
    return torch.stack(proj_rotmats)

class ManoLayer(nn.Module):
    def __init__(self, flat_hand_mean=True, side="right", mano_root=None, use_pca=False,
                 root_rot_mode='rotmat', joint_rot_mode='rotmat', n_verts=200):
        super().__init__()
        self.register_buffer('th_shapedirs', torch.randn(n_verts, 3, 10) * 0.01)
        self.register_buffer('th_posedirs', torch.randn(n_verts, 3, 135) * 0.01)
        self.register_buffer('th_v_template', torch.randn(1, n_verts, 3))
        self.register_buffer('th_J_regressor', torch.rand(16, n_verts).softmax(-1))

    def forward(self, th_pose_coeffs, th_betas):
        batch_size = th_pose_coeffs.shape[0]
        th_pose_rots = batch_rotprojs(th_pose_coeffs)
        th_rot_map = th_pose_rots[:, 1:].reshape(batch_size, -1)
        th_pose_map = th_rot_map - torch.eye(3, device=th_rot_map.device).view(1, 9).repeat(batch_size, 15)
        th_v_shaped = torch.matmul(self.th_shapedirs, th_betas.transpose(1, 0)).permute(2, 0, 1) \\
            + self.th_v_template
        th_j = torch.matmul(self.th_J_regressor, th_v_shaped)
        th_v_posed = th_v_shaped + torch.matmul(
            self.th_posedirs, th_pose_map.transpose(0, 1)).permute(2, 0, 1)
        return th_v_posed, th_j

device = torch.device("cuda:0")
_mano_root = 'mano/models'
mano = ManoLayer(flat_hand_mean=True, side="right", mano_root=_mano_root, use_pca=False,
                 root_rot_mode='rotmat', joint_rot_mode='rotmat')
pose0 = torch.eye(3).repeat(1, 16, 1, 1)
shape = torch.zeros(1, 10)          # shape estimated from the predicted bone lengths (cpu)
'''
CELL = '''
hand_verts, j3d_recon = mano(pose0, shape.float())
print(hand_verts.shape)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device",
                "found two different devices",
                "Unhandled FakeTensor Device Propagation")
CULPRITS = ["mano"]
FIX = "namespace"
REFERENCE_FIX = '''
pose0 = pose0.to(device)
shape = shape.to(device)
mano = mano.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
