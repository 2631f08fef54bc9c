"""TRELLIS.2 on a GPU without bfloat16: `sample_sparse_structure` draws its noise in float32 while the flow model was converted to float16.

Source: https://github.com/microsoft/TRELLIS.2/pull/135
"Fix dtype mismatches for GPUs without bfloat16 support": when the models are converted to float16 for
older GPUs, "Noise tensors are created as float32 via `torch.randn().to(device)` without matching the
model's dtype -> mismatches at the first linear layer". The PR casts the noise tensors to the model dtype
in `trellis2/pipelines/trellis2_image_to_3d.py` (`torch.randn(...).to(self.device)` in
`sample_sparse_structure` and the SLat samplers).
Stand-ins: `Trellis2ImageTo3DPipeline.sample_sparse_structure` as in the repository (noise line kept
verbatim), a two-step Euler flow sampler, and the sparse-structure flow model reduced to input layer,
timestep embedder (already casting its frequencies to the MLP dtype, the PR's other change), two
modulated MLP blocks and the output layer. The user converted the flow model with `.half()` (SIM "cpu":
dtype only).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

def manual_cast(tensor, dtype):
    if not torch.is_autocast_enabled():
        return tensor.type(dtype)
    return tensor

class TimestepEmbedder(nn.Module):
    def __init__(self, hidden_size, frequency_embedding_size=64):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(frequency_embedding_size, hidden_size), nn.SiLU(),
                                 nn.Linear(hidden_size, hidden_size))
        self.frequency_embedding_size = frequency_embedding_size

    @staticmethod
    def timestep_embedding(t, dim, max_period=10000):
        half = dim // 2
        freqs = torch.exp(-np.log(max_period) * torch.arange(0, half, dtype=torch.float32) / half).to(t.device)
        args = t[:, None].float() * freqs[None]
        return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)

    def forward(self, t):
        t_freq = self.timestep_embedding(t, self.frequency_embedding_size)
        return self.mlp(t_freq.to(self.mlp[0].weight.dtype))

class ModulatedBlock(nn.Module):
    def __init__(self, channels, cond_channels):
        super().__init__()
        self.adaLN_modulation = nn.Sequential(nn.SiLU(), nn.Linear(channels, 2 * channels))
        self.cross = nn.Linear(cond_channels, channels)
        self.mlp = nn.Sequential(nn.Linear(channels, 2 * channels), nn.GELU(), nn.Linear(2 * channels, channels))

    def forward(self, h, t_emb, cond):
        shift, scale = self.adaLN_modulation(t_emb).chunk(2, dim=-1)
        h = F.layer_norm(h, h.shape[-1:]) * (1 + scale[:, None]) + shift[:, None]
        h = h + self.cross(cond).mean(1, keepdim=True)
        return h + self.mlp(h)

class SparseStructureFlowModel(nn.Module):
    """stand-in of trellis2.models.SparseStructureFlowModel, reduced"""
    def __init__(self, resolution=4, in_channels=8, model_channels=64, cond_channels=32, num_blocks=2):
        super().__init__()
        self.resolution, self.in_channels, self.dtype = resolution, in_channels, torch.float32
        self.t_embedder = TimestepEmbedder(model_channels)
        self.input_layer = nn.Linear(in_channels, model_channels)
        self.blocks = nn.ModuleList([ModulatedBlock(model_channels, cond_channels) for _ in range(num_blocks)])
        self.out_layer = nn.Linear(model_channels, in_channels)

    @property
    def device(self):
        return next(self.parameters()).device

    def forward(self, x, t, cond):
        h = x.view(*x.shape[:2], -1).permute(0, 2, 1).contiguous()
        h = self.input_layer(h)
        t_emb = manual_cast(self.t_embedder(t), self.dtype)
        h = manual_cast(h, self.dtype)
        cond = manual_cast(cond, self.dtype)
        for block in self.blocks:
            h = block(h, t_emb, cond)
        h = manual_cast(h, x.dtype)
        h = self.out_layer(F.layer_norm(h, h.shape[-1:]))
        return h.permute(0, 2, 1).view(h.shape[0], h.shape[2], *[self.resolution] * 3).contiguous()

class FlowEulerSampler:
    """stand-in of trellis2.pipelines.samplers.FlowEulerSampler (guidance omitted)"""
    def sample(self, model, noise, cond, steps=2, **kwargs):
        x_t = noise
        t_seq = torch.linspace(1, 0, steps + 1)
        for t, t_prev in zip(t_seq[:-1], t_seq[1:]):
            pred_v = model(x_t, torch.tensor([1000 * t] * x_t.shape[0], device=x_t.device), cond)
            x_t = x_t - (t - t_prev) * pred_v
        return type("Out", (), {"samples": x_t})()

class Trellis2ImageTo3DPipeline:
    """stand-in of trellis2.pipelines.Trellis2ImageTo3DPipeline, sparse-structure stage only"""
    def __init__(self, models):
        self.models = models
        self.sparse_structure_sampler = FlowEulerSampler()
        self.sparse_structure_sampler_params = {"steps": 2}
        self.low_vram = False
        self.device = torch.device("cpu")

    def sample_sparse_structure(self, cond, resolution, num_samples=1, sampler_params={}):
        flow_model = self.models['sparse_structure_flow_model']
        reso = flow_model.resolution
        in_channels = flow_model.in_channels
        noise = torch.randn(num_samples, in_channels, reso, reso, reso).to(self.device)
        sampler_params = {**self.sparse_structure_sampler_params, **sampler_params}
        if self.low_vram:
            flow_model.to(self.device)
        z_s = self.sparse_structure_sampler.sample(flow_model, noise, **cond, **sampler_params).samples
        if self.low_vram:
            flow_model.cpu()
        return z_s

torch.manual_seed(0)
ss_flow = SparseStructureFlowModel().eval()
ss_flow.half()                                   # GTX 1660: no bfloat16, converted to float16
ss_flow.dtype = torch.float16
pipeline = Trellis2ImageTo3DPipeline({'sparse_structure_flow_model': ss_flow})
cond = {"cond": torch.randn(1, 5, 32, dtype=torch.float16)}   # get_cond() output, float16
'''
CELL = '''
with torch.no_grad():
    z_s = pipeline.sample_sparse_structure(cond, resolution=4)
print(z_s.shape, z_s.dtype)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected m1 and m2 to have the same dtype", "expected scalar type")
CULPRITS = ["pipeline"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("noise = torch.randn(num_samples, in_channels, reso, reso, reso).to(self.device)",
                  "noise = torch.randn(num_samples, in_channels, reso, reso, reso).to(self.device, dtype=flow_model.dtype)")
CLEAN = False
