"""Look-alike: the smplx demo runs the body model, then takes vertices to the CPU and pairs them with the model's numpy `faces` for a trimesh.

Source: https://github.com/vchoutas/smplx/blob/main/examples/demo.py
The demo creates `model = smplx.create(...)`, samples `betas` and `expression` with `torch.randn`,
calls `output = model(betas=betas, expression=expression, return_verts=True)`, then
`vertices = output.vertices.detach().cpu().numpy().squeeze()` and
`trimesh.Trimesh(vertices, model.faces, ...)`. `model.faces` is a numpy int array kept beside a torch
model (the registered `faces_tensor` buffer is the torch copy), and the joints/vertices leave the
device on purpose. Stand-ins: an SMPL-shaped layer (shape blendshapes, a J_regressor, rigid
global orientation) on a simulated GPU; a tiny dict instead of trimesh.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class SMPLX(nn.Module):
    def __init__(self, num_verts=400, num_joints=22, num_betas=10, num_expression_coeffs=10):
        super().__init__()
        rng = np.random.RandomState(0)
        self.faces = rng.randint(0, num_verts, (700, 3)).astype(np.int64)
        self.register_buffer("faces_tensor", torch.from_numpy(self.faces))
        self.register_buffer("v_template", torch.randn(num_verts, 3))
        self.register_buffer("shapedirs", torch.randn(num_verts, 3, num_betas + num_expression_coeffs) * 0.01)
        self.register_buffer("J_regressor", torch.rand(num_joints, num_verts).softmax(-1))
        self.betas = nn.Parameter(torch.zeros(1, num_betas))
        self.expression = nn.Parameter(torch.zeros(1, num_expression_coeffs))
        self.global_orient = nn.Parameter(torch.zeros(1, 3))

    def forward(self, betas=None, expression=None, return_verts=True):
        betas = self.betas if betas is None else betas
        expression = self.expression if expression is None else expression
        shape_components = torch.cat([betas, expression], dim=-1)
        v_shaped = self.v_template + torch.einsum("bl,mkl->bmk", shape_components, self.shapedirs)
        joints = torch.einsum("bik,ji->bjk", v_shaped, self.J_regressor)
        return type("SMPLXOutput", (), {"vertices": v_shaped, "joints": joints})()

device = torch.device("cuda:0")
model = SMPLX().to(device)
betas = torch.randn([1, 10], dtype=torch.float32, device=device)
expression = torch.randn([1, 10], dtype=torch.float32, device=device)
'''
CELL = '''
with torch.no_grad():
    output = model(betas=betas, expression=expression, return_verts=True)
vertices_t = output.vertices.cpu()
joints_t = output.joints.cpu()
mesh = {"vertices": vertices_t.squeeze(0), "faces": model.faces}
print("Vertices shape =", tuple(vertices_t.shape), "faces", model.faces.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
