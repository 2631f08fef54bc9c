"""EasyMocap SMPLlayer fed numpy float64 parameters while the body model sits on the GPU.

Source: https://github.com/zju3dv/EasyMocap/blob/master/easymocap/smplmodel/body_model.py
EasyMocap keeps fitted parameters as numpy arrays (`init_params` returns `np.zeros` for poses/shapes/
Rh/Th, float64) and calls `body_model(**params)` with them. `SMPLlayer.forward` checks
`if 'torch' not in str(type(poses))` and converts every parameter with
`to_tensor(x, self.dtype, self.device)` (float32, on the model's device); missing Rh/Th are built with
`device=poses.device`. Look-alike: float64 numpy arrays reaching a CUDA float32 model, handled by the
layer itself; it runs.
Stand-in: SMPLlayer reduced to to_tensor, the Rh/Th defaults, a Rodrigues rotation and blend-shape
lbs with random buffers at a reduced vertex count; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

def to_tensor(array, dtype=torch.float32, device=torch.device('cpu')):
    if 'torch.tensor' not in str(type(array)):
        return torch.tensor(array, dtype=dtype).to(device)
    else:
        return array.to(device)

def batch_rodrigues(rot_vecs, epsilon=1e-8):
    batch_size = rot_vecs.shape[0]
    device, dtype = rot_vecs.device, rot_vecs.dtype
    angle = torch.norm(rot_vecs + epsilon, dim=1, keepdim=True)
    rot_dir = rot_vecs / angle
    cos = torch.unsqueeze(torch.cos(angle), dim=1)
    sin = torch.unsqueeze(torch.sin(angle), dim=1)
    rx, ry, rz = torch.split(rot_dir, 1, dim=1)
    zeros = torch.zeros((batch_size, 1), dtype=dtype, device=device)
    K = torch.cat([zeros, -rz, ry, rz, zeros, -rx, -ry, rx, zeros], dim=1).view((batch_size, 3, 3))
    ident = torch.eye(3, dtype=dtype, device=device).unsqueeze(dim=0)
    return ident + sin * K + (1 - cos) * torch.bmm(K, K)

class SMPLlayer(nn.Module):
    NUM_POSES = 72

    def __init__(self, model_type='smpl', gender='neutral', device=None, num_verts=300):
        super().__init__()
        self.dtype = torch.float32
        if isinstance(device, str):
            device = torch.device(device)
        self.device = device
        self.model_type = model_type
        g = torch.Generator().manual_seed(0)
        self.register_buffer('v_template', torch.randn(num_verts, 3, generator=g))
        self.register_buffer('shapedirs', torch.randn(num_verts, 3, 10, generator=g) * 1e-2)
        self.register_buffer('posedirs', torch.randn(self.NUM_POSES, num_verts * 3, generator=g) * 1e-3)
        self.to(self.device)

    def init_params(self, nFrames=1, nShapes=1):
        return {'poses': np.zeros((nFrames, self.NUM_POSES)), 'shapes': np.zeros((nShapes, 10)),
                'Rh': np.zeros((nFrames, 3)), 'Th': np.zeros((nFrames, 3))}

    def lbs(self, shapes, poses):
        v_shaped = self.v_template + torch.einsum('bl,mkl->bmk', [shapes, self.shapedirs])
        return v_shaped + torch.matmul(poses, self.posedirs).view(poses.shape[0], -1, 3)

    def forward(self, poses, shapes, Rh=None, Th=None, return_verts=True, return_tensor=True, **kwargs):
        if 'torch' not in str(type(poses)):
            dtype, device = self.dtype, self.device
            poses = to_tensor(poses, dtype, device)
            shapes = to_tensor(shapes, dtype, device)
            if Rh is not None:
                Rh = to_tensor(Rh, dtype, device)
            if Th is not None:
                Th = to_tensor(Th, dtype, device)
        bn = poses.shape[0]
        if Rh is None:
            Rh = torch.zeros(bn, 3, device=poses.device)
        if Th is None:
            Th = torch.zeros(bn, 3, device=poses.device)
        rot = batch_rodrigues(Rh)
        transl = Th.unsqueeze(dim=1)
        if shapes.shape[0] < bn:
            shapes = shapes.expand(bn, -1)
        vertices = self.lbs(shapes, poses)
        vertices = torch.matmul(vertices, rot.transpose(1, 2)) + transl
        if not return_tensor:
            vertices = vertices.detach().cpu().numpy()
        return vertices

body_model = SMPLlayer(model_type='smpl', gender='neutral', device='meta')   # 'cuda' in EasyMocap; meta simulates it
params = body_model.init_params(nFrames=8)
params['poses'] = np.random.RandomState(0).randn(8, 72) * 0.1                # float64 from the fitting / json
params['Th'] = np.tile(np.array([[0.0, 0.2, 3.0]]), (8, 1))
'''
CELL = '''
vertices = body_model(**params)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
