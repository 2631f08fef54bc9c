"""redner: `pyredner.gen_translate_matrix` concatenates a CUDA translation with zero/one tensors it makes on the CPU.

Source: https://github.com/BachiLi/redner/issues/99
"Transform functions device placement errors (pytorch)": "The transform functions such as
gen_translate_matrix don't function when using cuda", failing in `torch.cat([o, z, z, translate[0:1]], 0)`
with "Expected object of backend CUDA but got backend CPU" because "Intermediate tensors they create are
placed on CPU" (`z = torch.zeros([1], dtype=torch.float32)`, `o = torch.ones(...)`), while
`gen_rotate_matrix` already passes `device=angles.device`. The maintainer fixed it ("generate intermediate
tensors at the corresponding devices"; the follow-up 2adabe2 settles on `device = translate.device`).
Today's PyTorch words the same failure "Expected all tensors to be on the same device".
Stand-ins: `gen_translate_matrix` and `gen_scale_matrix` as in redner then (`translate[0:1]` written as
`narrow(0, 0, 1)`), and a small mesh whose vertices the user moves with the matrix.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch

def gen_scale_matrix(scale):
    o = torch.ones([1], dtype=torch.float32)
    return torch.diag(torch.cat([scale, o], 0))

def gen_translate_matrix(translate):
    z = torch.zeros([1], dtype=torch.float32)
    o = torch.ones([1], dtype=torch.float32)
    return torch.stack([torch.cat([o, z, z, translate.narrow(0, 0, 1)], 0),
                        torch.cat([z, o, z, translate.narrow(0, 1, 1)], 0),
                        torch.cat([z, z, o, translate.narrow(0, 2, 1)], 0),
                        torch.cat([z, z, z, o], 0)])

device = torch.device("cuda:0")
# a unit cube, as loaded by pyredner.load_obj(..., device=pyredner.get_device())
vertices = torch.tensor([[x, y, z] for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)], device=device)
translation = torch.tensor([0.0, 0.5, -2.0], device=device)
'''
CELL = '''
with torch.no_grad():
    translate_matrix = gen_translate_matrix(translation)
    homogeneous = torch.cat([vertices, torch.ones(vertices.shape[0], 1, device=device)], dim=1)
    moved = (homogeneous @ translate_matrix.t()).narrow(1, 0, 3)
print(moved.shape)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["gen_translate_matrix"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""    z = torch.zeros([1], dtype=torch.float32)
    o = torch.ones([1], dtype=torch.float32)
""", """    z = torch.zeros([1], dtype=torch.float32, device = translate.device)
    o = torch.ones([1], dtype=torch.float32, device = translate.device)
""")
CLEAN = False
