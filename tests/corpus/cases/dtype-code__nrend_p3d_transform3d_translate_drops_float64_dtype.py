"""PyTorch3D Transform3d: composing a float64 transform with `.translate()` builds the Translate in the default float32, and `get_matrix()` fails.

Source: https://github.com/facebookresearch/pytorch3d/pull/1141
"Fix dtype propagation": "Previously, dtypes were not propagated correctly in composed transforms,
resulting in errors when different dtypes were mixed. Even specifying a dtype in the constructor does
not fix this." The composition helpers build the new sub-transform with only the device,
`return self.compose(Translate(device=self.device, *args, **kwargs))`, so `Translate` falls back to its
`dtype=torch.float32` default (and `_handle_input` casts the offset to it); `get_matrix()` then
multiplies the float64 matrix with the float32 one in `_broadcast_bmm` ("expected scalar type Double
but found Float"). The PR passes `dtype=self.dtype` when composing. Stand-ins: Transform3d (init,
compose, get_matrix, translate), Translate, `_handle_input`, `_broadcast_bmm`; a float64 world-to-view
pose built from a NumPy camera matrix, as a user rendering in double precision would. CPU (dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import numpy as np
import torch

def _handle_input(x, y, z, dtype, device, name):
    if torch.is_tensor(x) and x.dim() == 2:
        if x.shape[1] != 3:
            raise ValueError("Expected tensor of shape (N, 3); got %r (in %s)" % (x.shape, name))
        return x.to(device=device or x.device, dtype=dtype)
    xyz = [torch.as_tensor(c, dtype=dtype, device=device).view(-1) for c in (x, y, z)]
    return torch.stack(torch.broadcast_tensors(*xyz), dim=1)

def _broadcast_bmm(a, b):
    if a.dim() == 2:
        a = a[None]
    if len(a) != len(b):
        if len(a) == 1:
            a = a.expand(len(b), -1, -1)
        if len(b) == 1:
            b = b.expand(len(a), -1, -1)
    return a.bmm(b)

class Transform3d:
    def __init__(self, dtype=torch.float32, device="cpu", matrix=None):
        if matrix is None:
            self._matrix = torch.eye(4, dtype=dtype, device=device).view(1, 4, 4)
        else:
            dtype = matrix.dtype
            device = matrix.device
            self._matrix = matrix.view(-1, 4, 4)
        self._transforms = []
        self.device = torch.device(device)
        self.dtype = dtype

    def compose(self, *others):
        out = Transform3d(dtype=self.dtype, device=self.device)
        out._matrix = self._matrix.clone()
        out._transforms = self._transforms + list(others)
        return out

    def get_matrix(self):
        composed_matrix = self._matrix.clone()
        if len(self._transforms) > 0:
            for other in self._transforms:
                other_matrix = other.get_matrix()
                composed_matrix = _broadcast_bmm(composed_matrix, other_matrix)
        return composed_matrix

    def transform_points(self, points):
        points_batch = points.clone()
        if points_batch.dim() == 2:
            points_batch = points_batch[None]
        ones = torch.ones(points_batch.shape[0], points_batch.shape[1], 1, dtype=points.dtype, device=points.device)
        points_batch = torch.cat([points_batch, ones], dim=2)
        points_out = _broadcast_bmm(points_batch, self.get_matrix())
        return points_out[..., :3] / points_out[..., 3:]

    def translate(self, *args, **kwargs):
        return self.compose(Translate(device=self.device, *args, **kwargs))

class Translate(Transform3d):
    def __init__(self, x, y=None, z=None, dtype=torch.float32, device=None):
        xyz = _handle_input(x, y, z, dtype, device, "Translate")
        super().__init__(device=xyz.device, dtype=dtype)
        N = xyz.shape[0]
        mat = torch.eye(4, dtype=dtype, device=self.device)
        mat = mat.view(1, 4, 4).repeat(N, 1, 1)
        mat[:, 3, :3] = xyz
        self._matrix = mat

# a world-to-view pose from a calibration file, kept in double precision
R = np.linalg.qr(np.random.default_rng(0).standard_normal((3, 3)))[0]
w2v = np.eye(4)
w2v[:3, :3] = R
pose = Transform3d(matrix=torch.from_numpy(w2v)[None])
offset = torch.tensor([[0.0, 0.0, 2.7]], dtype=torch.float64)
verts = torch.rand(100, 3, dtype=torch.float64)
'''
CELL = '''
world_to_view = pose.translate(offset)
verts_view = world_to_view.transform_points(verts)
'''
EXPECT_ERROR = ("expected scalar type Double but found Float", "same dtype")
CULPRITS = ["pose"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return self.compose(Translate(device=self.device, *args, **kwargs))",
                  "return self.compose(Translate(device=self.device, dtype=self.dtype, *args, **kwargs))")
CLEAN = False
