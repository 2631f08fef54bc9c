"""kornia Z1Projection.unproject with a Python scalar depth: `torch.Tensor([depth])` lands on the CPU.

Source: https://github.com/kornia/kornia/pull/4340
"`Z1Projection.unproject` documents `depth: torch.Tensor | float` ... When `depth` is a python scalar the
method promotes it with `depth = torch.Tensor([depth])`. `torch.Tensor([depth])` is a CPU float32
constructor: it ignores the device and the dtype of `points`. ... on every accelerator the very next
line — `points.x * depth` — raises `RuntimeError: Expected all tensors to be on the same device`."
Fix: `torch.as_tensor([depth], device=points.data.device, dtype=points.data.dtype)`.
Stand-ins: `kornia.geometry.vector.Vector2/Vector3` reduced to the `data` wrapper, the `x`/`y` properties
and `from_coords` (stack on the last dim). Simulated with meta as the accelerator (its error text
differs: "Tensor on device cpu is not on the expected device meta!").
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch


class Vector2:
    def __init__(self, vector):
        self._data = vector

    @property
    def data(self):
        return self._data

    @property
    def x(self):
        return self.data[..., 0]

    @property
    def y(self):
        return self.data[..., 1]

    @classmethod
    def from_coords(cls, x, y, device=None, dtype=None):
        return cls(torch.stack((x, y), -1))


class Vector3(Vector2):
    @property
    def z(self):
        return self.data[..., 2]

    @classmethod
    def from_coords(cls, x, y, z, device=None, dtype=None):
        return cls(torch.stack((x, y, z), -1))


class Z1Projection:
    def project(self, points):
        xy = points.data[..., :2]
        z = points.z
        if len(z.shape):
            uv = xy / z.unsqueeze(-1)
        else:
            uv = xy * 1 / z
        return Vector2(uv)

    def unproject(self, points, depth):
        if isinstance(depth, (float, int)):
            depth = torch.Tensor([depth])
        return Vector3.from_coords(points.x * depth, points.y * depth, depth)


device = torch.device("meta")        # the accelerator (cuda / npu on the reporter's machine)
proj = Z1Projection()
points = Vector2(torch.tensor([1., 2.], device=device))    # a point on the z=1 plane
'''
CELL = '''
points_3d = proj.unproject(points, 3)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["proj"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "            depth = torch.Tensor([depth])\n",
    "            depth = torch.as_tensor([depth], device=points.data.device, dtype=points.data.dtype)\n",
)
CLEAN = False
