"""Look-alike: TRELLIS.2 in `low_vram` mode keeps its flow model on the CPU and moves it to the GPU only for its sampling stage.

Source: https://github.com/microsoft/TRELLIS.2/blob/main/trellis2/pipelines/trellis2_image_to_3d.py
`Trellis2ImageTo3DPipeline.sample_sparse_structure`: the noise is drawn with `torch.randn(...).to(self.device)`;
with `self.low_vram` set, `flow_model.to(self.device)` runs just before the sampler and `flow_model.cpu()` just
after, so between stages the model's weights sit on the CPU while the pipeline's device is cuda. A model on
the CPU next to CUDA inputs, by design (accelerate-like offload): nothing to report.
Stand-ins: the pipeline's sparse-structure stage (lines kept), a two-step Euler flow sampler and the
sparse-structure flow model reduced to input layer, timestep MLP, one modulated MLP block and output layer.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class SparseStructureFlowModel(nn.Module):
    """stand-in of trellis2.models.SparseStructureFlowModel, reduced"""
    def __init__(self, resolution=4, in_channels=8, model_channels=32, cond_channels=16):
        super().__init__()
        self.resolution, self.in_channels = resolution, in_channels
        self.t_embedder = nn.Sequential(nn.Linear(1, model_channels), nn.SiLU(), nn.Linear(model_channels, model_channels))
        self.input_layer = nn.Linear(in_channels, model_channels)
        self.adaLN_modulation = nn.Sequential(nn.SiLU(), nn.Linear(model_channels, 2 * model_channels))
        self.cross = nn.Linear(cond_channels, model_channels)
        self.out_layer = nn.Linear(model_channels, in_channels)

    def forward(self, x, t, cond):
        h = x.view(*x.shape[:2], -1).permute(0, 2, 1)
        h = self.input_layer(h)
        shift, scale = self.adaLN_modulation(self.t_embedder(t[:, None] / 1000)).chunk(2, dim=-1)
        h = F.layer_norm(h, h.shape[-1:]) * (1 + scale[:, None]) + shift[:, None] + self.cross(cond).mean(1, keepdim=True)
        h = self.out_layer(h)
        return h.permute(0, 2, 1).reshape(x.shape)

class FlowEulerSampler:
    def sample(self, model, noise, cond, steps=2, **kwargs):
        x_t = noise
        for i in range(steps):
            t = torch.full((x_t.shape[0],), 1000.0 * (1 - i / steps), device=x_t.device)
            x_t = x_t - model(x_t, t, cond) / steps
        return type("Out", (), {"samples": x_t})()

class Trellis2ImageTo3DPipeline:
    """stand-in of trellis2.pipelines.Trellis2ImageTo3DPipeline, sparse-structure stage"""
    def __init__(self, models, low_vram=True):
        self.models = models
        self.sparse_structure_sampler = FlowEulerSampler()
        self.sparse_structure_sampler_params = {"steps": 2}
        self.low_vram = low_vram
        self._device = torch.device("cpu")

    @property
    def device(self):
        return self._device

    def cuda(self):
        self._device = torch.device("cuda:0")
        if not self.low_vram:
            for m in self.models.values():
                m.to(self._device)
        return self

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

pipeline = Trellis2ImageTo3DPipeline({'sparse_structure_flow_model': SparseStructureFlowModel().eval()}, low_vram=True)
pipeline.cuda()                                           # weights stay on the CPU in low_vram mode
cond = {"cond": torch.randn(1, 5, 16, device="cuda:0")}   # pipeline.get_cond([image])
'''
CELL = '''
with torch.no_grad():
    z_s = pipeline.sample_sparse_structure(cond, resolution=4)
print(z_s.device, next(pipeline.models['sparse_structure_flow_model'].parameters()).device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
