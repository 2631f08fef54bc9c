"""Look-alike: nvdiffrast's cube sample keeps triangle indices in int32 beside float32 vertex positions and colours.

Source: https://github.com/NVlabs/nvdiffrast/blob/main/samples/torch/cube.py
The sample builds `pos_idx = torch.from_numpy(pos_idx.astype(np.int32))`, `vtx_pos` and `vtx_col`
as float32, and calls `dr.rasterize(glctx, pos_clip, pos_idx, resolution=...)` then
`dr.interpolate(vtx_col[None, ...], rast_out, col_idx)`. nvdiffrast requires int32 triangles,
so the int/float mix is by design and the render runs. Stand-ins: `transform_pos` and
`rasterize`/`interpolate` reduced to per-triangle barycentric-centre lookups (CPU).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch

def transform_pos(mtx, pos):
    t_mtx = torch.from_numpy(mtx) if isinstance(mtx, np.ndarray) else mtx
    posw = torch.cat([pos, torch.ones([pos.shape[0], 1])], axis=1)
    return torch.matmul(posw, t_mtx.t())[None, ...]

def rasterize(pos_clip, tri, resolution):
    assert tri.dtype == torch.int32, "tri must be int32"
    centers = pos_clip[0][tri.long()].mean(1)                 # (T, 4)
    ndc = centers[:, :2] / centers[:, 3:]
    H, W = resolution
    rast = torch.zeros(1, H, W, 4)
    px = ((ndc.clamp(-1, 1) + 1) / 2 * torch.tensor([W - 1, H - 1], dtype=torch.float32)).long()
    rast[0, px[:, 1], px[:, 0], 3] = torch.arange(1, tri.shape[0] + 1, dtype=torch.float32)
    return rast

def interpolate(attr, rast, tri):
    tri_id = rast[..., 3].long()                               # 0 = background
    tri_attr = attr[0][tri.long()].mean(1)                     # (T, C)
    tri_attr = torch.cat([torch.zeros(1, attr.shape[-1]), tri_attr], 0)
    return tri_attr[tri_id]

pos_idx = np.array([[0, 1, 2], [0, 2, 3], [4, 5, 6], [4, 6, 7], [0, 1, 5], [0, 5, 4]])
vtxp = np.array([[-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1],
                 [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1]], dtype=np.float32) * 0.5
col_idx = pos_idx.copy()
vtxc = np.random.RandomState(0).rand(8, 3).astype(np.float32)

pos_idx = torch.from_numpy(pos_idx.astype(np.int32))
col_idx = torch.from_numpy(col_idx.astype(np.int32))
vtx_pos = torch.from_numpy(vtxp.astype(np.float32))
vtx_col = torch.from_numpy(vtxc.astype(np.float32))
r_mvp = np.eye(4, dtype=np.float32)
r_mvp[2, 3] = -3.0
r_mvp[3, 2] = -1.0
r_mvp[3, 3] = 0.0
'''
CELL = '''
pos_clip = transform_pos(r_mvp, vtx_pos)
rast_out = rasterize(pos_clip, pos_idx, resolution=[32, 32])
color = interpolate(vtx_col[None, ...], rast_out, col_idx)
print(pos_idx.dtype, vtx_pos.dtype, color.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
