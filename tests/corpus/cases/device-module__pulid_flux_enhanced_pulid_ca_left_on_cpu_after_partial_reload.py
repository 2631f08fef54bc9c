"""PuLID-Flux-Enhanced: the `pulid_ca` cross-attention list hung on the Flux model stays on the CPU when ComfyUI reloads the model partially.

Source: https://github.com/sipie800/ComfyUI-PuLID-Flux-Enhanced/issues/54
SamplerCustomAdvanced failed with "Expected all tensors to be on the same device, but found at least
two devices, cuda:0 and cpu! (when checking argument for argument mat2 in method wrapper_CUDA_mm)"
in the patched `forward_orig`: `img = img + node_data['weight'] * self.pulid_ca[ca_idx](node_data['embedding'], img)`.
ApplyPulidFlux moves `pulid_flux` to the device once and hangs its `pulid_ca` ModuleList on the
diffusion model; when ComfyUI later offloads the model and loads it back partially (lowvram
partial loading; the stand-in's reading of how the modules end up behind), only the weights its
loader manages return to the GPU and the PuLID modules stay on the CPU. The fix (PR #41, applied by the users in the thread) calls `self.pulid_ca[ca_idx].to(device)`
at use. Stand-in: a two-block Flux-like model, PerceiverAttentionCA, the apply node and the
offload/partial-load steps of comfy.model_management.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

device = torch.device("cuda:0")                      # comfy.model_management.get_torch_device()
offload_device = torch.device("cpu")

class PerceiverAttentionCA(nn.Module):
    def __init__(self, dim=32, kv_dim=16, heads=4):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(kv_dim)
        self.norm2 = nn.LayerNorm(dim)
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_kv = nn.Linear(kv_dim, dim * 2, bias=False)
        self.to_out = nn.Linear(dim, dim, bias=False)

    def forward(self, x, latents):
        x, latents = self.norm1(x), self.norm2(latents)
        q = self.to_q(latents)
        k, v = self.to_kv(x).chunk(2, dim=-1)
        attn = (q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5).softmax(dim=-1)
        return self.to_out(attn @ v)

class PulidFluxModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.double_interval = 2
        self.pulid_encoder = nn.Linear(16, 16)       # IDFormer
        self.pulid_ca = nn.ModuleList([PerceiverAttentionCA() for _ in range(2)])

    def get_embeds(self, id_cond):
        return self.pulid_encoder(id_cond)

class Flux(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.img_in = nn.Linear(16, dim)
        self.double_blocks = nn.ModuleList([nn.Linear(dim, dim) for _ in range(4)])
        self.final_layer = nn.Linear(dim, 16)
        self.pulid_data = {}
        self.pulid_double_interval = 2

    def forward(self, img, timesteps):
        img = self.img_in(img)
        ca_idx = 0
        for i, block in enumerate(self.double_blocks):
            img = block(img)
            if self.pulid_data:
                if i % self.pulid_double_interval == 0:
                    for _, node_data in self.pulid_data.items():
                        img = img + node_data['weight'] * self.pulid_ca[ca_idx](node_data['embedding'], img)
                    ca_idx += 1
        return self.final_layer(img)

class ApplyPulidFlux:
    def apply_pulid_flux(self, flux_model, pulid_flux, id_cond, weight, unique_id="12"):
        pulid_flux.to(device)
        cond = pulid_flux.get_embeds(id_cond.to(device))
        flux_model.pulid_ca = pulid_flux.pulid_ca
        flux_model.pulid_double_interval = pulid_flux.double_interval
        flux_model.pulid_data[unique_id] = {"weight": weight, "embedding": cond}
        return flux_model

def load_models_gpu_partially(model, lowvram_budget=3):
    """ComfyUI's partial load: only the weights it patches (the model's own blocks) go to the GPU."""
    model.img_in.to(device)
    model.final_layer.to(device)
    for block in model.double_blocks:
        block.to(device)

flux_model = Flux().to(device)
flux_model = ApplyPulidFlux().apply_pulid_flux(flux_model, PulidFluxModel(), torch.randn(1, 8, 16), 1.0)
flux_model.to(offload_device)                       # unload_all_models() between two queued prompts
load_models_gpu_partially(flux_model)               # "loaded partially; ... lowvram patches"
img = torch.randn(1, 64, 16, device=device)         # packed latent
timesteps = torch.tensor([1.0], device=device)
'''
CELL = '''
out = flux_model(img, timesteps)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["flux_model.pulid_ca"]
FIX = "namespace"
REFERENCE_FIX = '''
flux_model.pulid_ca.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
