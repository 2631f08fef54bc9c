"""Look-alike: FLAME_PyTorch's main.py builds float32 params from numpy, moves them and the layer with `.cuda()`; landmark indices are int64 buffers.

Source: https://github.com/soubhiksanyal/FLAME_PyTorch/blob/master/main.py
`flamelayer = FLAME(config)`; `shape_params = torch.zeros(8, 100).cuda()`;
`pose_params_numpy = np.array([...], dtype=np.float32)`, `pose_params = torch.tensor(pose_params_numpy,
dtype=torch.float32).cuda()`; `expression_params = torch.zeros(8, 50, dtype=torch.float32).cuda()`;
`flamelayer.cuda()`; `vertice, landmark = flamelayer(shape_params, expression_params, pose_params)`.
FLAME registers `faces_tensor`, `lmk_faces_idx` (int64) and `lmk_bary_coords` (float32) as buffers and
keeps a numpy `faces`, so the mixed dtypes and the numpy array are by design. Stand-in: a reduced FLAME
(shape/expression blend shapes, rigid neck/global rotation, barycentric landmarks via index_select);
`.cuda()` is written `.to('cuda:0')`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class FLAME(nn.Module):
    def __init__(self, n_verts=250, n_shape=100, n_exp=50, n_lmk=51):
        super().__init__()
        rng = np.random.RandomState(0)
        self.faces = rng.randint(0, n_verts, (400, 3)).astype(np.int64)
        self.register_buffer('faces_tensor', torch.from_numpy(self.faces))
        self.register_buffer('v_template', torch.randn(n_verts, 3))
        self.register_buffer('shapedirs', torch.randn(n_verts, 3, n_shape + n_exp) * 0.001)
        self.register_buffer('lmk_faces_idx', torch.from_numpy(rng.randint(0, 400, n_lmk).astype(np.int64)))
        self.register_buffer('lmk_bary_coords', torch.from_numpy(rng.dirichlet([1, 1, 1], n_lmk).astype(np.float32)))

    def forward(self, shape_params, expression_params, pose_params):
        batch_size = shape_params.shape[0]
        betas = torch.cat([shape_params, expression_params], dim=1)
        v = self.v_template + torch.einsum('bl,mkl->bmk', betas, self.shapedirs)
        global_rot, jaw = torch.split(pose_params, [3, 3], dim=1)
        angle = global_rot.norm(dim=1, keepdim=True)
        v = v * torch.cos(angle).unsqueeze(-1)
        lmk_faces = torch.index_select(self.faces_tensor, 0, self.lmk_faces_idx)          # (L, 3)
        lmk_vertices = torch.index_select(v, 1, lmk_faces.view(-1)).view(batch_size, -1, 3, 3)
        landmarks = torch.einsum('blfi,lf->bli', lmk_vertices, self.lmk_bary_coords)
        return v, landmarks

radian = np.pi / 180.0
flamelayer = FLAME()
shape_params = torch.zeros(8, 100).to('cuda:0')
pose_params_numpy = np.array([[0.0, 30.0 * radian, 0.0, 0.0, 0.0, 0.0]] * 8, dtype=np.float32)
pose_params = torch.tensor(pose_params_numpy, dtype=torch.float32).to('cuda:0')
expression_params = torch.zeros(8, 50, dtype=torch.float32).to('cuda:0')
flamelayer = flamelayer.to('cuda:0')
'''
CELL = '''
with torch.no_grad():
    vertice, landmark = flamelayer(shape_params, expression_params, pose_params)
faces = flamelayer.faces
vertices = vertice.detach().cpu()
print(vertices.shape, landmark.shape, faces.dtype, flamelayer.lmk_faces_idx.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
