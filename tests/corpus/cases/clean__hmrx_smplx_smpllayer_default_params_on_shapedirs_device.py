"""smplx SMPLLayer called with only the predicted rotations: the missing betas/transl are made on the model's device.

Source: https://github.com/vchoutas/smplx/blob/main/smplx/body_models.py
`SMPLLayer.forward` takes every parameter as an optional argument; whatever is left out is created
with `device, dtype = self.shapedirs.device, self.shapedirs.dtype` (identity rotations, zero betas,
zero translation). An HMR-style regressor on the GPU that feeds only `global_orient`/`body_pose`
rotation matrices (no betas, no transl) therefore never mixes devices, although no tensor in the
cell mentions where betas or transl live. Look-alike: absent inputs filled in inside forward; it runs.
Stand-in: SMPLLayer's default-filling as in smplx, lbs reduced to shape/pose blend shapes and joint
regression with random buffers at a reduced vertex count; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def blend_shapes(betas, shape_disps):
    return torch.einsum('bl,mkl->bmk', [betas, shape_disps])

def vertices2joints(J_regressor, vertices):
    return torch.einsum('bik,ji->bjk', [vertices, J_regressor])

def lbs(betas, pose, v_template, shapedirs, posedirs, J_regressor):
    batch_size = max(betas.shape[0], pose.shape[0])
    v_shaped = v_template + blend_shapes(betas, shapedirs)
    J = vertices2joints(J_regressor, v_shaped)
    ident = torch.eye(3, dtype=pose.dtype, device=pose.device)
    pose_feature = (pose[:, 1:, :, :] - ident).view([batch_size, -1])
    pose_offsets = torch.matmul(pose_feature, posedirs).view(batch_size, -1, 3)
    return v_shaped + pose_offsets, J

class SMPLLayer(nn.Module):
    NUM_JOINTS = 23
    NUM_BODY_JOINTS = 23

    def __init__(self, num_verts=300, num_betas=10):
        super().__init__()
        g = torch.Generator().manual_seed(0)
        self.num_betas = num_betas
        self.register_buffer('v_template', torch.randn(num_verts, 3, generator=g))
        self.register_buffer('shapedirs', torch.randn(num_verts, 3, num_betas, generator=g) * 1e-2)
        self.register_buffer('posedirs', torch.randn(self.NUM_JOINTS * 9, num_verts * 3, generator=g) * 1e-3)
        self.register_buffer('J_regressor', torch.rand(24, num_verts, generator=g) / num_verts)

    def forward(self, betas=None, body_pose=None, global_orient=None, transl=None, pose2rot=False):
        model_vars = [betas, global_orient, body_pose, transl]
        batch_size = 1
        for var in model_vars:
            if var is None:
                continue
            batch_size = max(batch_size, len(var))
        device, dtype = self.shapedirs.device, self.shapedirs.dtype
        if global_orient is None:
            global_orient = torch.eye(3, device=device, dtype=dtype).view(1, 1, 3, 3).expand(batch_size, -1, -1, -1).contiguous()
        if body_pose is None:
            body_pose = torch.eye(3, device=device, dtype=dtype).view(1, 1, 3, 3).expand(batch_size, self.NUM_BODY_JOINTS, -1, -1).contiguous()
        if betas is None:
            betas = torch.zeros([batch_size, self.num_betas], dtype=dtype, device=device)
        if transl is None:
            transl = torch.zeros([batch_size, 3], dtype=dtype, device=device)
        full_pose = torch.cat([global_orient.reshape(-1, 1, 3, 3),
                               body_pose.reshape(-1, self.NUM_BODY_JOINTS, 3, 3)], dim=1)
        vertices, joints = lbs(betas, full_pose, self.v_template, self.shapedirs, self.posedirs, self.J_regressor)
        joints = joints + transl.unsqueeze(dim=1)
        vertices = vertices + transl.unsqueeze(dim=1)
        return vertices, joints

device = torch.device("meta")          # the GPU, simulated with meta
smpl = SMPLLayer().to(device)
batch_size = 4
pred_rotmat = torch.linalg.qr(torch.randn(batch_size, 24, 3, 3))[0].to(device)   # regressor output (rotation matrices)
'''
CELL = '''
pred_vertices, pred_joints = smpl(body_pose=pred_rotmat[:, 1:], global_orient=pred_rotmat[:, 0].unsqueeze(1), pose2rot=False)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
