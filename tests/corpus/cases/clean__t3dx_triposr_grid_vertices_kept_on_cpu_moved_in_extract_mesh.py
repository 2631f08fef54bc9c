"""Look-alike: TripoSR keeps the marching-cubes grid vertices on the CPU on purpose and moves them to the scene codes' device when extracting the mesh.

Source: https://github.com/VAST-AI-Research/TripoSR/blob/main/tsr/models/isosurface.py
(with tsr/system.py `TSR.extract_mesh`). `MarchingCubeHelper.grid_vertices` is a plain attribute built lazily
with the comment "keep the vertices on the CPU so that we can support very large resolution", so it never
follows `model.to(device)`; `extract_mesh` passes `self.isosurface_helper.grid_vertices.to(scene_codes.device)`
to `renderer.query_triplane`. A CPU tensor hanging off a CUDA model, moved where it is used: nothing to report.
Stand-ins: `MarchingCubeHelper` (grid only), `TriplaneNeRFRenderer.query_triplane` (the three plane projections kept,
the bilinear `grid_sample` replaced by a smooth pooled-feature lookup, chunking omitted), `NeRFMLP` decoder and a `TSR` holding them; the cell is the density query of
`extract_mesh` up to `density_act` (marching cubes itself runs in torchmcubes).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

def scale_tensor(dat, inp_scale, tgt_scale):
    if inp_scale is None:
        inp_scale = (0, 1)
    if tgt_scale is None:
        tgt_scale = (0, 1)
    dat = (dat - inp_scale[0]) / (inp_scale[1] - inp_scale[0])
    return dat * (tgt_scale[1] - tgt_scale[0]) + tgt_scale[0]

class MarchingCubeHelper(nn.Module):
    points_range = (0, 1)

    def __init__(self, resolution):
        super().__init__()
        self.resolution = resolution
        self._grid_vertices = None

    @property
    def grid_vertices(self):
        if self._grid_vertices is None:
            # keep the vertices on CPU so that we can support very large resolution
            x, y, z = (torch.linspace(*self.points_range, self.resolution) for _ in range(3))
            x, y, z = torch.meshgrid(x, y, z, indexing="ij")
            verts = torch.cat([x.reshape(-1, 1), y.reshape(-1, 1), z.reshape(-1, 1)], dim=-1).reshape(-1, 3)
            self._grid_vertices = verts
        return self._grid_vertices

class NeRFMLP(nn.Module):
    def __init__(self, in_channels=3 * 8, n_neurons=32):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(in_channels, n_neurons), nn.SiLU(), nn.Linear(n_neurons, 4))

    def forward(self, features):
        out = self.layers(features)
        return {"density": out[..., :1], "features": out[..., 1:]}

class TriplaneNeRFRenderer(nn.Module):
    def __init__(self, radius=0.87, density_bias=-1.0):
        super().__init__()
        self.radius, self.density_bias = radius, density_bias

    def query_triplane(self, decoder, positions, triplane):
        input_shape = positions.shape[:-1]
        positions = positions.view(-1, 3)
        positions = scale_tensor(positions, (-self.radius, self.radius), (-1, 1))
        px, py, pz = positions.narrow(-1, 0, 1), positions.narrow(-1, 1, 1), positions.narrow(-1, 2, 1)
        indices2D = torch.stack((torch.cat([px, py], -1), torch.cat([px, pz], -1), torch.cat([py, pz], -1)), dim=-3)
        # F.grid_sample(triplane, indices2D[:, None]) in TripoSR; a smooth stand-in here
        plane_feats = triplane.mean(dim=(-2, -1))                              # (3, C)
        out = torch.tanh(indices2D.sum(-1, keepdim=True)) * plane_feats[:, None, :]  # (3, N, C)
        out = out.permute(1, 0, 2).reshape(-1, 3 * triplane.shape[1])
        net_out = decoder(out)
        net_out["density_act"] = torch.exp(net_out["density"] + self.density_bias).view(*input_shape, 1)
        net_out["color"] = torch.sigmoid(net_out["features"]).view(*input_shape, -1)
        return net_out

class TSR(nn.Module):
    """stand-in of tsr.system.TSR, mesh-extraction path"""
    def __init__(self):
        super().__init__()
        self.decoder = NeRFMLP()
        self.renderer = TriplaneNeRFRenderer()
        self.isosurface_helper = None

    def set_marching_cubes_resolution(self, resolution):
        if self.isosurface_helper is not None and self.isosurface_helper.resolution == resolution:
            return
        self.isosurface_helper = MarchingCubeHelper(resolution)

device = "cuda:0"
model = TSR().to(device)
model.set_marching_cubes_resolution(16)
scene_codes = torch.randn(1, 3, 8, 16, 16, device=device)      # model(image, device) output triplanes
'''
CELL = '''
with torch.no_grad():
    for scene_code in scene_codes:
        density = model.renderer.query_triplane(
            model.decoder,
            scale_tensor(
                model.isosurface_helper.grid_vertices.to(scene_codes.device),
                model.isosurface_helper.points_range,
                (-model.renderer.radius, model.renderer.radius),
            ),
            scene_code,
        )["density_act"]
print(density.shape, density.device, model.isosurface_helper.grid_vertices.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
