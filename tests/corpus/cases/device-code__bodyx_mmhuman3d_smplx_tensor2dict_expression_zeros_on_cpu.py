"""mmhuman3d SMPLX `tensor2dict` fills a missing `expression` with `torch.zeros(...)` on the CPU.

Source: https://github.com/open-mmlab/mmhuman3d/issues/125
"Devices in tensor2dict are not aligned": posing the SMPL-X body model with full_pose + betas + transl
on the GPU and leaving `expression` to None fails, because `tensor2dict` creates the default
expression with `torch.zeros` and no device; the SMPL-X forward then concatenates it with the GPU
betas. The fix creates the default on the input's device. Stand-in: a small SMPL-X layer (shape +
expression blend shapes, joint regressor) with mmhuman3d's `tensor2dict` splitting `full_pose`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class SMPLX(nn.Module):
    NUM_BODY_JOINTS = 21

    def __init__(self, num_verts=300, num_betas=10, num_expression_coeffs=10):
        super().__init__()
        self.num_betas = num_betas
        self.num_expression_coeffs = num_expression_coeffs
        self.register_buffer('v_template', torch.randn(num_verts, 3))
        self.register_buffer('shapedirs', torch.randn(num_verts, 3, num_betas + num_expression_coeffs) * 0.01)
        self.register_buffer('J_regressor', torch.rand(55, num_verts).softmax(-1))

    def tensor2dict(self, full_pose, betas=None, transl=None, expression=None):
        NUM_BODY_JOINTS = self.NUM_BODY_JOINTS
        batch_size = full_pose.shape[0]
        full_pose = full_pose.view(batch_size, -1, 3)
        global_orient = full_pose[:, :1]
        body_pose = full_pose[:, 1:NUM_BODY_JOINTS + 1]
        if betas is None:
            betas = torch.zeros(batch_size, self.num_betas, device=full_pose.device)
        if transl is None:
            transl = torch.zeros(batch_size, 3, device=full_pose.device)
        if expression is None:
            expression = torch.zeros(batch_size, self.num_expression_coeffs)
        return dict(global_orient=global_orient.reshape(batch_size, -1),
                    body_pose=body_pose.reshape(batch_size, -1),
                    betas=betas, transl=transl, expression=expression)

    def forward(self, global_orient, body_pose, betas, transl, expression):
        shape_components = torch.cat([betas, expression], dim=-1)
        v_shaped = self.v_template + torch.einsum('bl,mkl->bmk', shape_components, self.shapedirs)
        joints = torch.einsum('bik,ji->bjk', v_shaped, self.J_regressor)
        return dict(vertices=v_shaped + transl[:, None], joints=joints + transl[:, None])

device = torch.device('cuda:0')
body_model = SMPLX().to(device)
full_pose = torch.zeros(2, 55 * 3, device=device)
betas = torch.randn(2, 10, device=device)
transl = torch.zeros(2, 3, device=device)
'''
CELL = '''
with torch.no_grad():
    output = body_model(**body_model.tensor2dict(full_pose=full_pose, betas=betas, transl=transl))
verts = output['vertices']
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device",
                "found two different devices",
                "Unhandled FakeTensor Device Propagation")
CULPRITS = ["body_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("expression = torch.zeros(batch_size, self.num_expression_coeffs)",
                  "expression = torch.zeros(batch_size, self.num_expression_coeffs, device=full_pose.device)")
CLEAN = False
