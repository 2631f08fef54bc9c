"""TRELLIS.2 in float16: the shape SLat is de-normalised with float32 `mean`/`std`, which promotes it back to float32 before the float16 decoder.

Source: https://github.com/microsoft/TRELLIS.2/pull/135
"Fix dtype mismatches for GPUs without bfloat16 support", third category: "Normalization statistics
(mean/std) default to float32 via `torch.tensor(list)` -> arithmetic with float16 latent tensors fails".
`slat * std + mean` type-promotes the float16 SLat features to float32, and the float16 shape decoder then
fails at its first linear layer. The PR casts the normalization stats to the latent dtype in
`trellis2/pipelines/trellis2_image_to_3d.py` (5 sites, `sample_shape_slat` among them).
Stand-ins: `SparseTensor` (feats + coords, `replace`, element-wise ops through `__elemwise__`, `dtype`),
`Trellis2ImageTo3DPipeline.sample_shape_slat`/`decode_shape_slat` with the normalization lines verbatim
(the noise already cast to the model dtype, the PR's other change), a one-step flow sampler, a SLat flow
model and a shape decoder reduced to sparse linear layers; both models converted with `.half()` for a GPU
without bfloat16 (SIM "cpu": dtype only).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class SparseTensor:
    """stand-in of trellis2.modules.sparse.SparseTensor (feats [N, C] + coords [N, 4])"""
    def __init__(self, feats, coords):
        self.feats, self.coords = feats, coords

    @property
    def dtype(self):
        return self.feats.dtype

    @property
    def device(self):
        return self.feats.device

    @property
    def shape(self):
        return torch.Size([int(self.coords[:, 0].max()) + 1, *self.feats.shape[1:]])

    def replace(self, feats, coords=None):
        return SparseTensor(feats, self.coords if coords is None else coords)

    def __elemwise__(self, other, op):
        if isinstance(other, SparseTensor):
            other = other.feats
        return self.replace(op(self.feats, other))

    def __add__(self, other):
        return self.__elemwise__(other, torch.add)

    def __sub__(self, other):
        return self.__elemwise__(other, torch.sub)

    def __mul__(self, other):
        return self.__elemwise__(other, torch.mul)

class SparseLinear(nn.Linear):
    def forward(self, x):
        return x.replace(super().forward(x.feats))

class SLatFlowModel(nn.Module):
    """stand-in of trellis2.models.SLatFlowModel, reduced to sparse linear layers"""
    def __init__(self, in_channels=8, model_channels=32):
        super().__init__()
        self.in_channels = in_channels
        self.dtype = torch.float32
        self.input_layer = SparseLinear(in_channels, model_channels)
        self.t_mlp = nn.Linear(1, model_channels)
        self.out_layer = SparseLinear(model_channels, in_channels)

    def forward(self, x, t, cond):
        h = self.input_layer(x)
        h = h.replace(F.silu(h.feats + self.t_mlp(t[:, None].to(h.dtype) / 1000) + cond.mean(1)))
        return self.out_layer(h)

class ShapeSLatDecoder(nn.Module):
    """stand-in of the FlexiDualGrid shape decoder: sparse MLP to per-voxel SDF/deformation"""
    def __init__(self, latent_channels=8):
        super().__init__()
        self.resolution = 64
        self.low_vram = False
        self.input_layer = SparseLinear(latent_channels, 32)
        self.out_layer = SparseLinear(32, 4)

    def set_resolution(self, resolution):
        self.resolution = resolution

    def forward(self, x, return_subs=False):
        h = self.input_layer(x)
        h = h.replace(F.silu(h.feats))
        return self.out_layer(h)

class FlowEulerSampler:
    def sample(self, model, noise, cond, steps=1, **kwargs):
        x_t = noise
        t = torch.full((1,), 1000.0, device=noise.device)
        pred_v = model(x_t, t, cond)
        return type("Out", (), {"samples": x_t - pred_v})()

class Trellis2ImageTo3DPipeline:
    """stand-in of trellis2.pipelines.Trellis2ImageTo3DPipeline, shape-SLat stage only"""
    def __init__(self, models, shape_slat_normalization):
        self.models = models
        self.shape_slat_normalization = shape_slat_normalization
        self.shape_slat_sampler = FlowEulerSampler()
        self.shape_slat_sampler_params = {"steps": 1}
        self.low_vram = False
        self.device = torch.device("cpu")

    def sample_shape_slat(self, cond, flow_model, coords, sampler_params={}):
        noise = SparseTensor(
            feats=torch.randn(coords.shape[0], flow_model.in_channels).to(self.device, dtype=flow_model.dtype),
            coords=coords,
        )
        sampler_params = {**self.shape_slat_sampler_params, **sampler_params}
        slat = self.shape_slat_sampler.sample(flow_model, noise, **cond, **sampler_params).samples

        std = torch.tensor(self.shape_slat_normalization['std'])[None].to(slat.device)
        mean = torch.tensor(self.shape_slat_normalization['mean'])[None].to(slat.device)
        slat = slat * std + mean

        return slat

    def decode_shape_slat(self, slat, resolution):
        self.models['shape_slat_decoder'].set_resolution(resolution)
        ret = self.models['shape_slat_decoder'](slat, return_subs=True)
        return ret

torch.manual_seed(0)
shape_flow = SLatFlowModel().eval().half()          # RTX 2080: float16 instead of bfloat16
shape_flow.dtype = torch.float16
shape_decoder = ShapeSLatDecoder().eval().half()
pipeline = Trellis2ImageTo3DPipeline(
    {'slat_flow_model_512': shape_flow, 'shape_slat_decoder': shape_decoder},
    shape_slat_normalization={'mean': [0.1] * 8, 'std': [2.5] * 8},   # pipeline.json values
)
coords = torch.cat([torch.zeros(20, 1, dtype=torch.int32), torch.randint(0, 32, (20, 3), dtype=torch.int32)], 1)
cond = {"cond": torch.randn(1, 5, 32, dtype=torch.float16)}
'''
CELL = '''
with torch.no_grad():
    shape_slat = pipeline.sample_shape_slat(cond, pipeline.models['slat_flow_model_512'], coords)
    out = pipeline.decode_shape_slat(shape_slat, 512)
print(shape_slat.dtype, out.feats.shape)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected m1 and m2 to have the same dtype", "expected scalar type")
CULPRITS = ["pipeline"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        std = torch.tensor(self.shape_slat_normalization['std'])[None].to(slat.device)\n"
    "        mean = torch.tensor(self.shape_slat_normalization['mean'])[None].to(slat.device)\n",
    "        std = torch.tensor(self.shape_slat_normalization['std'])[None].to(slat.device, slat.dtype)\n"
    "        mean = torch.tensor(self.shape_slat_normalization['mean'])[None].to(slat.device, slat.dtype)\n",
)
CLEAN = False
