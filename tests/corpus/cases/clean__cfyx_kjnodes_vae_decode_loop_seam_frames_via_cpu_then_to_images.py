"""Look-alike: KJNodes VAEDecodeLoopKJ decodes the loop-seam frames, moves them to the CPU in float32, then `.to(images)` before joining them with the GPU frames.

Source: https://github.com/kijai/ComfyUI-KJNodes (nodes/nodes.py, VAEDecodeLoopKJ.decode:
`temp_images = vae.decode(torch.cat([latents[:, :, -end_frames:]] + [latents[:, :, :start_frames]], dim=2)).cpu().float()`
and `images = torch.cat([temp_images[:, temp_start:].to(images), images[:, main_start:]], dim=1)`)
Under `--gpu-only` the main decode stays on cuda:0 while the seam decode is pushed to the CPU on purpose;
`.to(images)` brings it back to the main frames' device and dtype before the cat. The cell runs.
Stand-in: the node's decode (same names) and a tiny Wan-style video VAE (1 + 4*(T-1) frames).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class WanVAE:                                        # comfy.sd.VAE for a Wan video VAE (tiny stand-in)
    def __init__(self, device):
        self.device = device
        self.decoder = nn.Conv3d(16, 3, 1).to(device)
    def decode(self, latents):
        x = self.decoder(latents.to(self.device))    # (B, 3, T, H, W)
        x = torch.cat([x[:, :, :1], x[:, :, 1:].repeat_interleave(4, dim=2)], dim=2)
        return x.permute(0, 2, 3, 4, 1)              # (B, 1 + 4*(T-1), H, W, 3) on the output device

class VAEDecodeLoopKJ:
    def decode(self, vae, samples, overlap_latent_frames):
        latents = samples["samples"]
        images = vae.decode(latents)
        if overlap_latent_frames <= 0:
            return (images,)
        end_frames = overlap_latent_frames + 1
        start_frames = overlap_latent_frames
        temp_images = vae.decode(torch.cat([latents[:, :, -end_frames:]] + [latents[:, :, :start_frames]], dim=2)).cpu().float()
        total_concat = end_frames + start_frames
        temp_start = total_concat * 2 - 1
        main_start = total_concat + (overlap_latent_frames if overlap_latent_frames > 2 else 0)
        images = torch.cat([temp_images[:, temp_start:].to(images), images[:, main_start:]], dim=1)
        if len(images.shape) == 5:
            images = images.reshape(-1, images.shape[-3], images.shape[-2], images.shape[-1])
        return (images,)

device = torch.device("cuda:0")                      # --gpu-only: decoded frames stay on the GPU
vae = WanVAE(device)
samples = {"samples": torch.randn(1, 16, 9, 8, 8, device=device)}     # KSampler output, 33 frames
node = VAEDecodeLoopKJ()
'''
CELL = '''
frames = node.decode(vae, samples, 2)[0]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
