"""Look-alike: nvdiffrast's earth sample builds its model-view-projection matrices in NumPy every iteration and hands them to `render` beside CUDA meshes.

Source: https://github.com/NVlabs/nvdiffrast/blob/main/samples/torch/earth.py
Each iteration makes `r_mvp = np.matmul(proj, r_mv).astype(np.float32)` on the host and calls
`render(glctx, r_mvp, vtx_pos, pos_idx, vtx_uv, uv_idx, tex_opt, ...)`, whose vertex/texture tensors
are all on the GPU. The NumPy matrix looks stranded on the CPU, but `transform_pos(mtx, pos)` converts
it there: `t_mtx = torch.from_numpy(mtx).cuda() if isinstance(mtx, np.ndarray) else mtx`, and the
homogeneous column is made with `torch.ones(...).cuda()`. Stand-ins: `transform_pos` (`.cuda()` written
as `.to("cuda:0")` and `[None, ...]`/`[..., -1:]` as
`unsqueeze`/`narrow`, which the fake device accepts) and `dr.rasterize`/`dr.interpolate`/`dr.texture`
reduced to a per-vertex projection and a bilinear blend of the texture's four quadrants.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F

def transform_pos(mtx, pos):
    t_mtx = torch.from_numpy(mtx).to("cuda:0") if isinstance(mtx, np.ndarray) else mtx
    posw = torch.cat([pos, torch.ones([pos.shape[0], 1]).to("cuda:0")], axis=1)
    return torch.matmul(posw, t_mtx.t()).unsqueeze(0)

class dr:
    @staticmethod
    def rasterize(glctx, pos_clip, tri, resolution):
        ndc = pos_clip.narrow(-1, 0, 2) / pos_clip.narrow(-1, 3, 1).clamp(min=1e-3)
        return torch.cat([ndc, pos_clip.narrow(-1, 2, 1), torch.ones_like(ndc.narrow(-1, 0, 1))], -1), None
    @staticmethod
    def interpolate(attr, rast, tri):
        return attr, None
    @staticmethod
    def texture(tex, uv, filter_mode="linear"):
        corners = F.adaptive_avg_pool2d(tex.permute(0, 3, 1, 2), 2).flatten(2).transpose(1, 2)   # [1, 4, C]
        u, v = uv.narrow(-1, 0, 1), uv.narrow(-1, 1, 1)
        w = torch.cat([(1 - u) * (1 - v), u * (1 - v), (1 - u) * v, u * v], -1)             # bilinear weights
        return torch.matmul(w, corners)

def render(glctx, mtx, pos, pos_idx, uv, uv_idx, tex, resolution):
    pos_clip = transform_pos(mtx, pos)
    rast_out, _ = dr.rasterize(glctx, pos_clip, pos_idx, resolution=[resolution, resolution])
    texc, _ = dr.interpolate(uv.unsqueeze(0), rast_out, uv_idx)
    color = dr.texture(tex.unsqueeze(0), texc, filter_mode="linear")
    return color * torch.clamp(rast_out.narrow(-1, 3, 1), 0, 1)

def projection(x=0.1, n=1.0, f=50.0):
    return np.array([[n/x, 0, 0, 0], [0, n/-x, 0, 0], [0, 0, -(f+n)/(f-n), -(2*f*n)/(f-n)], [0, 0, -1, 0]]).astype(np.float32)

def translate(x, y, z):
    return np.array([[1, 0, 0, x], [0, 1, 0, y], [0, 0, 1, z], [0, 0, 0, 1]]).astype(np.float32)

rng = np.random.default_rng(0)
pos, uv = rng.standard_normal((200, 3)).astype(np.float32), rng.random((200, 2)).astype(np.float32)
pos_idx = rng.integers(0, 200, (300, 3))
tex = rng.random((64, 64, 3)).astype(np.float32)

pos_idx = torch.from_numpy(pos_idx.astype(np.int32)).to("cuda:0")
vtx_pos = torch.from_numpy(pos.astype(np.float32)).to("cuda:0")
uv_idx  = pos_idx
vtx_uv  = torch.from_numpy(uv.astype(np.float32)).to("cuda:0")
tex     = torch.from_numpy(tex.astype(np.float32)).to("cuda:0")
tex_opt = torch.full(tex.shape, 0.2, device="cuda:0")
glctx = None
res = 64
'''
CELL = '''
proj  = projection(x=0.4, n=1.0, f=200.0)
r_mv  = np.matmul(translate(0, 0, -1.5 - rng.uniform(0.0, 48.5)), np.eye(4, dtype=np.float32))
r_mvp = np.matmul(proj, r_mv).astype(np.float32)
with torch.no_grad():
    color = render(glctx, r_mvp, vtx_pos, pos_idx, vtx_uv, uv_idx, tex, res)
    color_opt = render(glctx, r_mvp, vtx_pos, pos_idx, vtx_uv, uv_idx, tex_opt, res)
    loss = torch.mean((color - color_opt) ** 2)
print(type(r_mvp).__name__, color.device, loss.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
