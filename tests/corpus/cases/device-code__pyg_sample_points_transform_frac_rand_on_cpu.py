"""PyG `SamplePoints` (mesh -> point cloud) draws its barycentric fractions with torch.rand on the CPU.

Source: https://github.com/pyg-team/pytorch_geometric/issues/407
"sample_points works only on CPU": `frac = torch.rand(self.num, 2)` in
`torch_geometric/transforms/sample_points.py` should be `torch.rand(self.num, 2, device=pos.device)`,
"otherwise fails on line 46 if pos is on cuda" (`pos_sampled += frac[:, :1] * vec1`). The user
sampled point clouds from meshes already on the GPU. Stand-in: `Data` reduced to a namespace with
`pos`/`face`; the transform body is the reported version. Simulated with meta as the accelerator;
the bool-mask assignment `frac[mask] = 1 - frac[mask]` is written as the equivalent torch.where.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
from types import SimpleNamespace

class SamplePoints(object):
    def __init__(self, num, remove_faces=True, include_normals=False):
        self.num = num
        self.remove_faces = remove_faces
        self.include_normals = include_normals

    def __call__(self, data):
        pos, face = data.pos, data.face
        assert pos.size(1) == 3 and face.size(0) == 3

        pos_max = pos.abs().max()
        pos = pos / pos_max

        area = (pos[face[1]] - pos[face[0]]).cross(pos[face[2]] - pos[face[0]], dim=1)
        area = area.norm(p=2, dim=1).abs() / 2

        prob = area / area.sum()
        sample = torch.multinomial(prob, self.num, replacement=True)
        face = face[:, sample]

        frac = torch.rand(self.num, 2)
        mask = frac.sum(dim=-1) > 1
        frac = torch.where(mask[:, None], 1 - frac, frac)      # frac[mask] = 1 - frac[mask]

        vec1 = pos[face[1]] - pos[face[0]]
        vec2 = pos[face[2]] - pos[face[0]]

        pos_sampled = pos[face[0]]
        pos_sampled += frac[:, :1] * vec1
        pos_sampled += frac[:, 1:] * vec2

        pos_sampled = pos_sampled * pos_max
        data.pos = pos_sampled
        if self.remove_faces:
            data.face = None
        return data

device = torch.device("meta")          # torch.device("cuda")
verts = torch.randn(200, 3)
faces = torch.randint(0, 200, (3, 400))
mesh = SimpleNamespace(pos=verts.to(device), face=faces.to(device))
transform = SamplePoints(1024)
'''
CELL = '''
cloud = transform(SimpleNamespace(pos=mesh.pos, face=mesh.face))
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["transform"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("frac = torch.rand(self.num, 2)", "frac = torch.rand(self.num, 2, device=pos.device)")
CLEAN = False
