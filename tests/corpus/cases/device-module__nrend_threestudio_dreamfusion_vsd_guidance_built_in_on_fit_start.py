"""threestudio: VSD guidance used with `dreamfusion-system` is built in `on_fit_start`, after Lightning moved the system, so its camera embedding stays on the CPU.

Source: https://github.com/threestudio-project/threestudio/issues/186
"Not on same device error" when a user paired the `stable-diffusion-vsd-guidance` (ProlificDreamer's
VSD) with the `dreamfusion-system`. A maintainer traced it: `camera_embedding` (and the LoRA attention
processors) are created on the CPU inside the guidance, and `dreamfusion-system` constructs `guidance`
and `prompt_processor` in the `on_fit_start` hook instead of in `configure`, so PyTorch Lightning never
moves those modules to the GPU (ProlificDreamer's own system builds them in `configure`, which is why it
works there). Suggested fix: move the construction of `guidance`/`prompt_processor` into `configure`.
Stand-ins: the system (a plain nn.Module whose `__init__` calls `configure`), the fit start reduced to
`system.to(device)` followed by `system.on_fit_start()` (what Trainer.fit does), a tiny geometry/renderer,
and the VSD guidance with its LoRA UNet loaded `.to(self.device)` and a `camera_embedding` made
afterwards on the CPU and hooked in as the UNet's `class_embedding`.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
from dataclasses import dataclass, field

def get_device():
    return torch.device("cuda:0")

class TimestepEmbedding(nn.Module):
    def __init__(self, in_channels, time_embed_dim):
        super().__init__()
        self.linear_1 = nn.Linear(in_channels, time_embed_dim)
        self.linear_2 = nn.Linear(time_embed_dim, time_embed_dim)
    def forward(self, sample):
        return self.linear_2(F.silu(self.linear_1(sample)))

class UNet2DConditionModel(nn.Module):
    def __init__(self, ch=4, emb=32):
        super().__init__()
        self.conv_in = nn.Conv2d(ch, emb, 3, padding=1)
        self.conv_out = nn.Conv2d(emb, ch, 3, padding=1)
        self.class_embedding = None
    def forward(self, latents, t, class_labels=None):
        h = self.conv_in(latents)
        if self.class_embedding is not None:
            h = h + self.class_embedding(class_labels)[:, :, None, None]
        return self.conv_out(h)

@dataclass
class VSDConfig:
    guidance_scale: float = 7.5
    lora_n_timestamp_samples: int = 1

class StableDiffusionVSDGuidance(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.device = get_device()
        self.configure()

    def configure(self):
        self.vae_encoder = nn.Conv2d(3, 4, 8, stride=8).to(self.device)      # pipe.vae, loaded .to(self.device)
        self.unet = UNet2DConditionModel().to(self.device)                   # pipe.unet
        self.unet_lora = UNet2DConditionModel().to(self.device)              # pipe_lora.unet
        # camera-conditioned LoRA UNet: the embedding is made here, after the pipes were moved
        self.camera_embedding = TimestepEmbedding(16, 32)
        self.unet_lora.class_embedding = self.camera_embedding

    def forward(self, rgb, c2w, **kwargs):
        latents = self.vae_encoder(rgb.permute(0, 3, 1, 2) * 2 - 1)
        t = torch.randint(20, 980, (latents.shape[0],), device=self.device)
        noise = torch.randn_like(latents)
        noisy = latents + noise
        noise_pred_pretrain = self.unet(noisy, t)
        camera_condition = c2w.view(c2w.shape[0], -1)
        noise_pred_est = self.unet_lora(noisy, t, class_labels=camera_condition)
        grad = noise_pred_pretrain - noise_pred_est
        loss_vsd = 0.5 * F.mse_loss(latents, (latents - grad).detach(), reduction="sum") / latents.shape[0]
        loss_lora = F.mse_loss(noise_pred_est, noise)
        return {"loss_vsd": loss_vsd, "loss_lora": loss_lora}

class ImplicitVolume(nn.Module):
    def __init__(self):
        super().__init__()
        self.density = nn.Linear(3, 1)
        self.feature = nn.Linear(3, 3)

class NeRFVolumeRenderer(nn.Module):
    def __init__(self, geometry):
        super().__init__()
        self.geometry = geometry
    def forward(self, rays_o, rays_d, height, width, **kwargs):
        pts = rays_o + 0.5 * rays_d
        sigma = torch.sigmoid(self.geometry.density(pts))
        rgb = torch.sigmoid(self.geometry.feature(pts)) * sigma
        return {"comp_rgb": rgb.view(rays_o.shape[0], height, width, 3)}

@dataclass
class SystemConfig:
    guidance: VSDConfig = field(default_factory=VSDConfig)

class DreamFusion(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.configure()

    def configure(self):
        # create geometry, material, background, renderer
        self.geometry = ImplicitVolume()
        self.renderer = NeRFVolumeRenderer(self.geometry)

    def on_fit_start(self):
        # only used in training
        self.guidance = StableDiffusionVSDGuidance(self.cfg.guidance)

    def forward(self, batch):
        return self.renderer(**batch)

    def training_step(self, batch, batch_idx):
        out = self(batch)
        guidance_out = self.guidance(out["comp_rgb"], **batch)
        loss = guidance_out["loss_vsd"] + guidance_out["loss_lora"]
        return {"loss": loss}

device = torch.device("cuda:0")
system = DreamFusion(SystemConfig())
# Trainer.fit(system, datamodule=dm): the strategy moves the LightningModule, then calls on_fit_start()
system.to(device)
system.on_fit_start()
B, H, W = 1, 64, 64
batch = {
    "rays_o": torch.randn(B, H, W, 3, device=device),
    "rays_d": torch.randn(B, H, W, 3, device=device),
    "c2w": torch.randn(B, 4, 4, device=device),
    "height": H,
    "width": W,
}
'''
CELL = '''
with torch.no_grad():
    out = system.training_step(batch, 0)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["system"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        self.renderer = NeRFVolumeRenderer(self.geometry)

    def on_fit_start(self):
        # only used in training
        self.guidance = StableDiffusionVSDGuidance(self.cfg.guidance)""",
                  """        self.renderer = NeRFVolumeRenderer(self.geometry)
        self.guidance = StableDiffusionVSDGuidance(self.cfg.guidance)

    def on_fit_start(self):
        pass""")
CLEAN = False
