"""Minimal-Hand's patched manopth projects GPU joint rotations on the CPU and returns them to their device.

Source: https://github.com/MengHao666/Minimal-Hand-pytorch/blob/main/manopth/rotproj.py
Minimal-Hand-pytorch ships its own manopth with `batch_rotprojs` rewritten: each joint rotation matrix
is sent to the CPU (`rotmat.cpu().svd()`, "GPU implementation of svd is VERY slow"), projected to
the nearest rotation, and moved back with `rotmat.to(_device)` where `_device = rotmat.device`. With
the MANO layer and the pose matrices on the GPU (`use_pca=False`, `joint_rot_mode='rotmat'`), the
CPU round trip inside the loop is deliberate and the result meets `th_posedirs` on the GPU.
Look-alike: a per-item `.cpu()` hop inside forward that returns to the input's device; it runs.
Stand-in: rotproj with the reflection check written with a sign instead of an in-place column flip, and
a ManoLayer reduced to the rotmat branch up to the posed vertices (random MANO-sized buffers, slices
written with narrow for the simulated GPU).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch.nn import Module

def batch_rotprojs(batches_rotmats):
    proj_rotmats = []
    for batch_idx, batch_rotmats in enumerate(batches_rotmats):
        proj_batch_rotmats = []
        for rot_idx, rotmat in enumerate(batch_rotmats):
            # GPU implementation of svd is VERY slow
            # ~ 2 10^-3 per hit vs 5 10^-5 on cpu
            _device = rotmat.device
            U, S, V = rotmat.cpu().svd()
            rotmat = torch.matmul(U, V.transpose(0, 1))
            orth_det = rotmat.det()
            # Remove reflection (if orth_det < 0: rotmat[:, 2] = -1 * rotmat[:, 2])
            rotmat = rotmat * torch.cat([torch.ones(2), torch.sign(orth_det).reshape(1)])
            rotmat = rotmat.to(_device)
            proj_batch_rotmats.append(rotmat)
        proj_rotmats.append(torch.stack(proj_batch_rotmats))
    return torch.stack(proj_rotmats)

def subtract_flat_id(rot_mats):
    rot_nb = int(rot_mats.shape[1] / 9)
    id_flat = torch.eye(3, dtype=rot_mats.dtype, device=rot_mats.device).view(1, 9).repeat(rot_mats.shape[0], rot_nb)
    return rot_mats - id_flat

class ManoLayer(Module):
    def __init__(self, flat_hand_mean=True, side='right', use_pca=False, root_rot_mode='rotmat', joint_rot_mode='rotmat'):
        super().__init__()
        g = torch.Generator().manual_seed(0)
        self.register_buffer('th_betas', torch.zeros(1, 10))
        self.register_buffer('th_shapedirs', torch.randn(778, 3, 10, generator=g) * 1e-3)
        self.register_buffer('th_posedirs', torch.randn(778, 3, 135, generator=g) * 1e-3)
        self.register_buffer('th_v_template', torch.randn(1, 778, 3, generator=g) * 0.05)

    def forward(self, th_pose_coeffs, th_betas=None):
        batch_size = th_pose_coeffs.shape[0]
        th_pose_rots = batch_rotprojs(th_pose_coeffs)
        th_rot_map = th_pose_rots.narrow(1, 1, 15).reshape(batch_size, -1)     # th_pose_rots[:, 1:]
        th_pose_map = subtract_flat_id(th_rot_map)
        th_v_shaped = torch.matmul(self.th_shapedirs, self.th_betas.transpose(1, 0)).permute(2, 0, 1) + self.th_v_template
        th_v_posed = th_v_shaped + torch.matmul(self.th_posedirs, th_pose_map.transpose(0, 1)).permute(2, 0, 1)
        return th_v_posed

device = torch.device('cuda:0')
mano = ManoLayer(flat_hand_mean=True, side="right", use_pca=False, root_rot_mode='rotmat', joint_rot_mode='rotmat')
mano = mano.to(device)
pose0 = torch.linalg.qr(torch.randn(1, 16, 3, 3))[0]        # IK output: 16 joint rotations
'''
CELL = '''
hand_verts = mano(pose0.to(device))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
