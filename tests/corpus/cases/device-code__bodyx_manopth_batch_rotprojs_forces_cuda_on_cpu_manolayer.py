"""manopth ManoLayer kept on the CPU with use_pca=False: `batch_rotprojs` sends every projected rotation to the GPU.

Source: https://github.com/hassony2/manopth/pull/26
"Fix a bug when the device of manolayer is cpu and use_pca=False": with rotation-matrix poses the
layer calls `rotproj.batch_rotprojs(th_pose_coeffs)`, which runs the SVD on the CPU and then always
ends with `rotmat = rotmat.cuda()`. `th_pose_map` is therefore on the GPU while the layer's
`th_posedirs` buffer stays on the CPU, and `torch.matmul(self.th_posedirs, th_pose_map...)` fails.
The PR keeps the output on the input's device. Stand-in: a small ManoLayer (shape/pose blend shapes,
joint regressor, root transform) with random buffers; `.cuda()` is written `.to("cuda:0")` (the
current device) and the reflection check is done without a Python `if` so it runs on fake tensors.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def batch_rotprojs(batches_rotmats):
    proj_rotmats = []
    for batch_idx, batch_rotmats in enumerate(batches_rotmats):
        proj_batch_rotmats = []
        for rot_idx, rotmat in enumerate(batch_rotmats):
            # GPU implementation of svd is VERY slow
            U, S, V = torch.svd(rotmat.cpu())
            rotmat = torch.matmul(U, V.transpose(0, 1))
            orth_det = torch.det(rotmat)
            # Remove reflection
            rotmat = torch.cat([rotmat[:, :2], rotmat[:, 2:] * torch.sign(orth_det)], 1)
            rotmat = rotmat.to("cuda:0")          # rotmat.cuda()
            proj_batch_rotmats.append(rotmat)
        proj_rotmats.append(torch.stack(proj_batch_rotmats))
    return torch.stack(proj_rotmats)

def subtract_flat_id(rot_mats):
    rot_nb = int(rot_mats.shape[1] / 9)
    id_flat = torch.eye(3, dtype=rot_mats.dtype, device=rot_mats.device).view(1, 9).repeat(
        rot_mats.shape[0], rot_nb)
    return rot_mats - id_flat

class ManoLayer(nn.Module):
    def __init__(self, n_verts=200, ncomps=10, use_pca=False, root_rot_mode='rotmat',
                 joint_rot_mode='rotmat', flat_hand_mean=True):
        super().__init__()
        self.use_pca = use_pca
        self.root_rot_mode = root_rot_mode
        self.joint_rot_mode = joint_rot_mode
        self.register_buffer('th_betas', torch.zeros(1, 10))
        self.register_buffer('th_shapedirs', torch.randn(n_verts, 3, 10) * 0.01)
        self.register_buffer('th_posedirs', torch.randn(n_verts, 3, 135) * 0.01)
        self.register_buffer('th_v_template', torch.randn(1, n_verts, 3))
        self.register_buffer('th_J_regressor', torch.rand(16, n_verts).softmax(-1))

    def forward(self, th_pose_coeffs, th_betas=None):
        batch_size = th_pose_coeffs.shape[0]
        th_pose_rots = batch_rotprojs(th_pose_coeffs)
        th_rot_map = th_pose_rots[:, 1:].reshape(batch_size, -1)
        th_pose_map = subtract_flat_id(th_rot_map)
        root_rot = th_pose_rots[:, 0]
        th_v_shaped = torch.matmul(self.th_shapedirs, th_betas.transpose(1, 0)).permute(
            2, 0, 1) + self.th_v_template
        th_j = torch.matmul(self.th_J_regressor, th_v_shaped)
        th_v_posed = th_v_shaped + torch.matmul(
            self.th_posedirs, th_pose_map.transpose(0, 1)).permute(2, 0, 1)
        th_verts = torch.einsum('bij,bvj->bvi', root_rot, th_v_posed)
        th_jtr = torch.einsum('bij,bvj->bvi', root_rot, th_j)
        return th_verts, th_jtr

mano_layer = ManoLayer(use_pca=False, root_rot_mode='rotmat', joint_rot_mode='rotmat')
batch_size = 2
random_shape = torch.rand(batch_size, 10)
random_pose = torch.eye(3).repeat(batch_size, 16, 1, 1)
'''
CELL = '''
hand_verts, hand_joints = mano_layer(random_pose, random_shape)
print(hand_verts.shape, hand_joints.shape)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device",
                "found two different devices",
                "Unhandled FakeTensor Device Propagation")
CULPRITS = ["mano_layer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('rotmat = rotmat.to("cuda:0")          # rotmat.cuda()',
                  'rotmat = rotmat.to(batch_rotmats.device)')
CLEAN = False
