"""redner: `pyredner.generate_quad_light` builds its fallback frame axes as CPU tensors, so GPU inputs fail in `torch.where`.

Source: https://github.com/BachiLi/redner/issues/109
"two torch tensors are initialized without `device = pyredner.get_device()` in the quad light generation
function in `utils.py` line 185 and 188. It causes errors when using gpu tensors as input to the quad light
generator." The maintainer asked for a PR; #110 ("fixed missing parameter issue 109") adds
`device = pyredner.get_device()` to the two `torch.tensor([...])` constants passed to `torch.where`.
Stand-ins: `get_device`/`set_use_gpu`, `Material` and `Object` as plain holders, and `generate_quad_light`
as in redner at the time (integer indexing `d[2]`, `size[0]` written as `select(0, i)`).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

_use_gpu = False
_device = torch.device("cpu")

def set_use_gpu(v):
    global _use_gpu, _device
    _use_gpu = v
    _device = torch.device("cuda:0") if v else torch.device("cpu")

def get_device():
    return _device

class Material:
    def __init__(self, diffuse_reflectance, specular_reflectance=None, roughness=None):
        self.diffuse_reflectance = diffuse_reflectance
        self.specular_reflectance = specular_reflectance if specular_reflectance is not None else torch.zeros(3, device=get_device())
        self.roughness = roughness if roughness is not None else torch.ones(1, device=get_device())

class Object:
    def __init__(self, vertices, indices, material, light_intensity=None, directly_visible=True):
        self.vertices, self.indices, self.material = vertices, indices, material
        self.light_intensity, self.directly_visible = light_intensity, directly_visible

def generate_quad_light(position: torch.Tensor,
                        look_at: torch.Tensor,
                        size: torch.Tensor,
                        intensity: torch.Tensor):
    """Generate a pyredner.Object that is a quad light source."""
    d = look_at - position
    d = d / torch.norm(d)
    # ONB -- generate two axes that are orthogonal to d
    a = 1 / (1 + d.select(0, 2))
    b = -d.select(0, 0) * d.select(0, 1) * a
    x = torch.where(d.select(0, 2) < (-1 + 1e-6),
                    torch.tensor([0.0, -1.0, 0.0]),
                    torch.stack([1 - d.select(0, 0) * d.select(0, 0) * a, b, -d.select(0, 0)]))
    y = torch.where(d.select(0, 2) < (-1 + 1e-6),
                    torch.tensor([-1.0, 0.0, 0.0]),
                    torch.stack([b, 1 - d.select(0, 1) * d.select(0, 1) * a, -d.select(0, 1)]))
    v0 = position - x * size.select(0, 0) * 0.5 - y * size.select(0, 1) * 0.5
    v1 = position + x * size.select(0, 0) * 0.5 - y * size.select(0, 1) * 0.5
    v2 = position - x * size.select(0, 0) * 0.5 + y * size.select(0, 1) * 0.5
    v3 = position + x * size.select(0, 0) * 0.5 + y * size.select(0, 1) * 0.5

    vertices = torch.stack((v0, v1, v2, v3), dim = 0).to(get_device())
    indices = torch.tensor([[0, 1, 2],[1, 3, 2]],
        dtype = torch.int32, device = get_device())
    m = Material(diffuse_reflectance = torch.tensor([0.0, 0.0, 0.0], device = get_device()))
    return Object(vertices = vertices,
                  indices = indices,
                  material = m,
                  light_intensity = intensity)

set_use_gpu(True)
light_position = torch.tensor([0.0, 5.0, 0.0], device=get_device())
light_look_at = torch.tensor([0.0, 0.0, 0.0], device=get_device())
light_size = torch.tensor([0.5, 0.5], device=get_device())
light_intensity = torch.tensor([20.0, 20.0, 20.0], device=get_device())
'''
CELL = '''
with torch.no_grad():
    light = generate_quad_light(position=light_position,
                                look_at=light_look_at,
                                size=light_size,
                                intensity=light_intensity)
print(light.vertices.shape)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["generate_quad_light"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""                    torch.tensor([0.0, -1.0, 0.0]),
                    torch.stack([1 - d.select(0, 0) * d.select(0, 0) * a, b, -d.select(0, 0)]))
    y = torch.where(d.select(0, 2) < (-1 + 1e-6),
                    torch.tensor([-1.0, 0.0, 0.0]),""",
                  """                    torch.tensor([0.0, -1.0, 0.0], device = get_device()),
                    torch.stack([1 - d.select(0, 0) * d.select(0, 0) * a, b, -d.select(0, 0)]))
    y = torch.where(d.select(0, 2) < (-1 + 1e-6),
                    torch.tensor([-1.0, 0.0, 0.0], device = get_device()),""")
CLEAN = False
