"""Fooocus inpaint (default memory mode): the VAE hands the inpaint latent back on the CPU, the inpaint head runs there, and its feature is cast to the UNet's `h`.

Source: https://github.com/lllyasviel/Fooocus/blob/main/modules/inpaint_worker.py
In the default mode the VAE's output (intermediate) device is the CPU, so `encode_vae_inpaint` returns
a CPU latent and, since 2.1.841, a mask moved with `.to(latent)`. `InpaintWorker.patch` builds the
inpaint head lazily from a CPU state dict, moves it to the feed's device/dtype with
`inpaint_head_model.to(device=feed.device, dtype=feed.dtype)`, and the UNet input-block patch adds the
feature with `inpaint_head_feature.to(h)` while `h` is on the GPU. CPU latents, mask and head by
design, cast at the UNet: it runs (modules/core.py `encode_vae_inpaint` is the same as upstream).
Stand-ins: ldm_patched's VAE, InpaintHead / InpaintWorker.patch, a ModelPatcher holding the patch;
the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch

def numpy_to_pytorch(x):
    y = x.astype(np.float32) / 255.0
    y = y[None]
    y = np.ascontiguousarray(y.copy())
    return torch.from_numpy(y).float()

class VAE:                                     # ldm_patched.modules.sd.VAE (stand-in)
    def __init__(self, first_stage_model, device, output_device):
        self.first_stage_model = first_stage_model.to(device)
        self.device = device
        self.output_device = output_device     # intermediate_device(): the GPU under --always-gpu

    def encode(self, pixel_samples):
        pixel_samples = pixel_samples.movedim(-1, 1)
        pixels_in = (2. * pixel_samples - 1.).to(self.device)
        return self.first_stage_model(pixels_in).to(self.output_device)

@torch.no_grad()
@torch.inference_mode()
def encode_vae_inpaint(vae, pixels, mask):
    assert mask.ndim == 3 and pixels.ndim == 4
    assert mask.shape[-1] == pixels.shape[-2]
    assert mask.shape[-2] == pixels.shape[-3]

    w = mask.round()[..., None]
    pixels = pixels * (1 - w) + 0.5 * w

    latent = vae.encode(pixels)
    B, C, H, W = latent.shape

    latent_mask = mask[:, None, :, :]
    latent_mask = torch.nn.functional.interpolate(latent_mask, size=(H * 8, W * 8), mode="bilinear").round()
    latent_mask = torch.nn.functional.max_pool2d(latent_mask, (8, 8)).round().to(latent)

    return latent, latent_mask

class InpaintHead(torch.nn.Module):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.head = torch.nn.Parameter(torch.zeros(size=(320, 5, 3, 3), device='cpu'))

    def __call__(self, x):
        x = torch.nn.functional.pad(x, (1, 1, 1, 1), "replicate")
        return torch.nn.functional.conv2d(input=x, weight=self.head)

class BaseModel:
    def __init__(self, scale_factor=0.13025):
        self.scale_factor = scale_factor

    def process_latent_in(self, latent):
        return latent * self.scale_factor

class ModelPatcher:
    def __init__(self, model):
        self.model = model
        self.input_block_patch = None

    def clone(self):
        m = ModelPatcher(self.model)
        m.input_block_patch = self.input_block_patch
        return m

    def set_model_input_block_patch(self, patch):
        self.input_block_patch = patch

inpaint_head_model = None

class InpaintWorker:
    def patch(self, inpaint_head_model_path, inpaint_latent, inpaint_latent_mask, model):
        global inpaint_head_model
        if inpaint_head_model is None:
            inpaint_head_model = InpaintHead()     # torch.load(inpaint_head_model_path, map_location='cpu')

        feed = torch.cat([
            inpaint_latent_mask,
            model.model.process_latent_in(inpaint_latent)
        ], dim=1)

        inpaint_head_model.to(device=feed.device, dtype=feed.dtype)
        inpaint_head_feature = inpaint_head_model(feed)

        def input_block_patch(h, transformer_options):
            if transformer_options["block"][1] == 0:
                h = h + inpaint_head_feature.to(h)
            return h

        m = model.clone()
        m.set_model_input_block_patch(input_block_patch)
        return m

gpu = torch.device("cuda:0")
first_stage = torch.nn.Conv2d(3, 4, kernel_size=8, stride=8)
candidate_vae = VAE(first_stage, device=gpu, output_device=torch.device("cpu"))   # intermediate_device(): CPU by default
final_unet = ModelPatcher(BaseModel())
current_task = InpaintWorker()

rng = np.random.RandomState(0)
interested_image = (rng.rand(64, 64, 3) * 255).astype(np.uint8)
interested_mask = np.zeros((64, 64), dtype=np.uint8)
interested_mask[16:48, 16:48] = 255
inpaint_pixel_image = numpy_to_pytorch(interested_image)
inpaint_pixel_mask = numpy_to_pytorch(interested_mask)
'''
CELL = '''
latent_inpaint, latent_mask = encode_vae_inpaint(
    mask=inpaint_pixel_mask,
    vae=candidate_vae,
    pixels=inpaint_pixel_image)

final_unet = current_task.patch(
    inpaint_head_model_path="inpaint_v26.fooocus.head",
    inpaint_latent=latent_inpaint,
    inpaint_latent_mask=latent_mask,
    model=final_unet
)
h = torch.randn(2, 320, 8, 8, device=gpu)      # first input block of the UNet on the GPU
h = final_unet.input_block_patch(h, {"block": ("input", 0)})
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
