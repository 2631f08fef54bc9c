"""neural_renderer on a second GPU: the Renderer's default `dist_coeffs` is built with torch.cuda.FloatTensor on cuda:0, the mesh lives on cuda:2.

Source: https://github.com/daniilidis-group/neural_renderer/issues/109
"dist_coeffs initialized with cuda:0, which causes error 'expected device cuda:0 but got device
cuda:2'": rendering silhouettes of a mesh (body/face fitting) on cuda:2 failed in `projection`
at `x__ = x_*(1 + k1*(r**2) + ...)`. renderer.py line 41 does `self.dist_coeffs =
torch.cuda.FloatTensor([[0., 0., 0., 0., 0.]])` when no coefficients are passed, which lands on
the current device (cuda:0); it is a plain attribute, so `renderer.to(device)` never moves it. The
user worked around it with CUDA_VISIBLE_DEVICES. Stand-in: the Renderer's projection-camera setup
and `projection()`; the fill-back and CUDA rasterizer are left out (the cell stops at the
projected vertices).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn

def projection(vertices, K, R, t, dist_coeffs, orig_size, eps=1e-9):
    vertices = torch.matmul(vertices, R.transpose(2, 1)) + t
    x, y, z = vertices[:, :, 0], vertices[:, :, 1], vertices[:, :, 2]
    x_ = x / (z + eps)
    y_ = y / (z + eps)
    k1 = dist_coeffs[:, None, 0]
    k2 = dist_coeffs[:, None, 1]
    p1 = dist_coeffs[:, None, 2]
    p2 = dist_coeffs[:, None, 3]
    k3 = dist_coeffs[:, None, 4]
    r = torch.sqrt(x_ ** 2 + y_ ** 2)
    x__ = x_*(1 + k1*(r**2) + k2*(r**4) + k3*(r**6)) + 2*p1*x_*y_ + p2*(r**2 + 2*x_**2)
    y__ = y_*(1 + k1*(r**2) + k2*(r**4) + k3*(r**6)) + p1*(r**2 + 2*y_**2) + 2*p2*x_*y_
    vertices = torch.stack([x__, y__, torch.ones_like(z)], dim=-1)
    vertices = torch.matmul(vertices, K.transpose(1, 2))
    u, v = vertices[:, :, 0], vertices[:, :, 1]
    v = orig_size - v
    u = 2 * (u - orig_size / 2.) / orig_size
    v = 2 * (v - orig_size / 2.) / orig_size
    return torch.stack([u, v, z], dim=-1)

class Renderer(nn.Module):
    def __init__(self, image_size=256, anti_aliasing=True, camera_mode='projection',
                 K=None, R=None, t=None, dist_coeffs=None, orig_size=1024):
        super(Renderer, self).__init__()
        self.image_size = image_size
        self.anti_aliasing = anti_aliasing
        self.camera_mode = camera_mode
        if self.camera_mode == 'projection':
            self.K = K
            self.R = R
            self.t = t
            self.dist_coeffs = dist_coeffs
            if dist_coeffs is None:
                # torch.cuda.FloatTensor([[0., 0., 0., 0., 0.]]): the current device, cuda:0
                self.dist_coeffs = torch.tensor([[0., 0., 0., 0., 0.]], device="cuda:0")
            self.orig_size = orig_size

    def render_silhouettes(self, vertices, faces, K=None, R=None, t=None, dist_coeffs=None, orig_size=None):
        if K is None:
            K = self.K
        if R is None:
            R = self.R
        if t is None:
            t = self.t
        if dist_coeffs is None:
            dist_coeffs = self.dist_coeffs
        if orig_size is None:
            orig_size = self.orig_size
        vertices = projection(vertices, K, R, t, dist_coeffs, orig_size)
        # fill_back, nr.vertices_to_faces(vertices, faces), nr.rasterize_silhouettes(...) (CUDA kernel)
        return vertices

device = torch.device("cuda:2")
K = torch.tensor([[[500., 0., 512.], [0., 500., 512.], [0., 0., 1.]]], device=device)
R = torch.eye(3, device=device)[None]
t = torch.tensor([[0., 0., 2.5]], device=device)
renderer = Renderer(image_size=256, camera_mode='projection', K=K, R=R, t=t, orig_size=1024).to(device)
vertices = (torch.rand(1, 642, 3) - 0.5).to(device)
faces = torch.randint(0, 642, (1, 1280, 3), dtype=torch.int32).to(device)
'''
CELL = '''
silhouettes = renderer.render_silhouettes(vertices, faces)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["renderer.dist_coeffs"]
FIX = "namespace"
REFERENCE_FIX = '''
renderer.dist_coeffs = renderer.dist_coeffs.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
