"""Look-alike: smplx `lbs`/`batch_rodrigues` build their zeros and identity on the pose's device, beside int64 `parents` and `faces_tensor` buffers.

Source: https://github.com/vchoutas/smplx/blob/main/smplx/lbs.py
`batch_rodrigues` computes `device, dtype = rot_vecs.device, rot_vecs.dtype`, then
`zeros = torch.zeros((batch_size, 1), dtype=dtype, device=device)` and
`ident = torch.eye(3, dtype=dtype, device=device).unsqueeze(dim=0)`; `lbs` regresses joints with the
`J_regressor` buffer and the body model keeps `parents` and `faces_tensor` as int64 buffers. Tensors
are created inside forward, but always on the input's device, so the GPU call is clean. Stand-in:
an SMPL-shaped layer (shape blend shapes, J_regressor, global orientation via batch_rodrigues).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def batch_rodrigues(rot_vecs, epsilon=1e-8):
    batch_size = rot_vecs.shape[0]
    device, dtype = rot_vecs.device, rot_vecs.dtype
    angle = torch.norm(rot_vecs + 1e-8, dim=1, keepdim=True)
    rot_dir = rot_vecs / angle
    cos = torch.unsqueeze(torch.cos(angle), dim=1)
    sin = torch.unsqueeze(torch.sin(angle), dim=1)
    rx, ry, rz = torch.split(rot_dir, 1, dim=1)
    zeros = torch.zeros((batch_size, 1), dtype=dtype, device=device)
    K = torch.cat([zeros, -rz, ry, rz, zeros, -rx, -ry, rx, zeros], dim=1).view((batch_size, 3, 3))
    ident = torch.eye(3, dtype=dtype, device=device).unsqueeze(dim=0)
    return ident + sin * K + (1 - cos) * torch.bmm(K, K)

def vertices2joints(J_regressor, vertices):
    return torch.einsum('bik,ji->bjk', [vertices, J_regressor])

class SMPL(nn.Module):
    def __init__(self, num_verts=300, num_joints=24, num_betas=10):
        super().__init__()
        self.register_buffer('faces_tensor', torch.randint(0, num_verts, (500, 3), dtype=torch.long))
        self.register_buffer('parents', torch.arange(-1, num_joints - 1, dtype=torch.long))
        self.register_buffer('v_template', torch.randn(num_verts, 3))
        self.register_buffer('shapedirs', torch.randn(num_verts, 3, num_betas) * 0.01)
        self.register_buffer('J_regressor', torch.rand(num_joints, num_verts).softmax(-1))
        self.betas = nn.Parameter(torch.zeros(1, num_betas))
        self.global_orient = nn.Parameter(torch.zeros(1, 3))
        self.transl = nn.Parameter(torch.zeros(1, 3))

    def forward(self, betas=None, global_orient=None, transl=None):
        betas = self.betas if betas is None else betas
        global_orient = self.global_orient if global_orient is None else global_orient
        transl = self.transl if transl is None else transl
        v_shaped = self.v_template + torch.einsum('bl,mkl->bmk', [betas, self.shapedirs])
        J = vertices2joints(self.J_regressor, v_shaped)
        R = batch_rodrigues(global_orient.view(-1, 3))
        verts = torch.einsum('bij,bvj->bvi', R, v_shaped) + transl.unsqueeze(1)
        joints = torch.einsum('bij,bvj->bvi', R, J) + transl.unsqueeze(1)
        return verts, joints

device = torch.device('cuda:0')
model = SMPL().to(device)
betas = torch.randn(4, 10, device=device)
global_orient = torch.randn(4, 3, device=device) * 0.3
transl = torch.zeros(4, 3, device=device)
'''
CELL = '''
with torch.no_grad():
    vertices, joints = model(betas=betas, global_orient=global_orient, transl=transl)
print(vertices.shape, joints.shape, model.parents.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
