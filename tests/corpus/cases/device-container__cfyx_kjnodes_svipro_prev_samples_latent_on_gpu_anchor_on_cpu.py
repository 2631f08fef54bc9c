"""KJNodes WanImageToVideoSVIPro: the previous clip's latent (prev_samples) is on cuda:0, the VAE-encoded anchor latent on the CPU.

Source: https://github.com/kijai/ComfyUI-KJNodes/issues/482
With GGUF Wan2.2 models the node failed at `image_cond_latent = torch.cat([anchor_latent, motion_latent], dim=2)`
with "Expected all tensors to be on the same device, but got tensors is on cuda:0, different from other
tensors on cpu (when checking argument in method wrapper_CUDA_cat)". The user's working fix moves the
motion latent (sliced from `prev_samples["samples"]`) to `anchor_latent.device` before the cat: the
anchor latent from VAEEncode is on the intermediate device (CPU) while the previous sampler's LATENT dict
came back on the GPU. Stand-in: the node's execute (same names), a Wan21 latent format and ComfyUI's
conditioning_set_values; LATENT dicts as ComfyUI passes them.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch

def intermediate_device():                      # comfy.model_management
    return torch.device("cpu")

class Wan21:                                    # comfy.latent_formats.Wan21 (stand-in)
    scale_factor = 1.0
    def process_out(self, latent):
        return latent / self.scale_factor

def conditioning_set_values(conditioning, values):      # node_helpers
    return [[c[0], {**c[1], **values}] for c in conditioning]

class WanImageToVideoSVIPro:
    @classmethod
    def execute(cls, positive, negative, length, motion_latent_count, anchor_samples, prev_samples=None):
        anchor_latent = anchor_samples["samples"].clone()
        B, C, T, H, W = anchor_latent.shape
        empty_latent = torch.zeros([B, 16, ((length - 1) // 4) + 1, H, W], device=intermediate_device())
        total_latents = (length - 1) // 4 + 1
        device = anchor_latent.device
        dtype = anchor_latent.dtype
        if prev_samples is None or motion_latent_count == 0:
            padding_size = total_latents - anchor_latent.shape[2]
            image_cond_latent = anchor_latent
        else:
            motion_latent = prev_samples["samples"][:, :, -motion_latent_count:].clone()
            padding_size = total_latents - anchor_latent.shape[2] - motion_latent.shape[2]
            image_cond_latent = torch.cat([anchor_latent, motion_latent], dim=2)
        padding = torch.zeros(1, C, padding_size, H, W, dtype=dtype, device=device)
        padding = Wan21().process_out(padding)
        image_cond_latent = torch.cat([image_cond_latent, padding], dim=2)
        mask = torch.ones((1, 1, empty_latent.shape[2], H, W), device=device, dtype=dtype)
        positive = conditioning_set_values(positive, {"concat_latent_image": image_cond_latent, "concat_mask": mask})
        negative = conditioning_set_values(negative, {"concat_latent_image": image_cond_latent, "concat_mask": mask})
        return positive, negative, {"samples": empty_latent}

positive = [[torch.randn(1, 77, 64), {}]]
negative = [[torch.randn(1, 77, 64), {}]]
anchor_samples = {"samples": torch.randn(1, 16, 1, 8, 8)}                          # VAEEncode of the anchor frame (CPU)
prev_samples = {"samples": torch.randn(1, 16, 21, 8, 8, device="cuda:0")}         # previous KSampler output (GGUF), left on the GPU
'''
CELL = '''
positive_out, negative_out, latent = WanImageToVideoSVIPro.execute(positive, negative, 81, 1, anchor_samples, prev_samples)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["prev_samples['samples']"]
FIX = "namespace"
REFERENCE_FIX = '''
prev_samples["samples"] = prev_samples["samples"].to(anchor_samples["samples"].device)
'''
REFERENCE_EDIT = None
CLEAN = False
