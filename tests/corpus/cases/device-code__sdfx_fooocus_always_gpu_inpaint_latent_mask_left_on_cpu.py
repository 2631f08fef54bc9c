"""Fooocus inpaint with `--always-gpu`: `encode_vae_inpaint` returns the latent on the GPU but the latent mask on the CPU.

Source: https://github.com/lllyasviel/Fooocus/issues/1419
With `--always-gpu`, inpainting crashed with a tensor error that lllyasviel fixed as an "inpaint
device problem in `--always-gpu` mode" (PR #1420): in that mode the VAE's output (intermediate)
device is the GPU, so `vae.encode(pixels)` hands back a
cuda latent, while `latent_mask` is computed from the CPU mask that came from
`numpy_to_pytorch(...)` and stays on the CPU. The inpaint head then concatenates the two
(`torch.cat([inpaint_latent_mask, process_latent_in(inpaint_latent)], dim=1)`), a cuda/cpu mix.
The fix (2.1.841) ends `encode_vae_inpaint` with `.round().to(latent)`.
Stand-ins: ldm_patched's VAE (encode moves pixels to its device, returns on its output device),
Fooocus' InpaintHead / InpaintWorker.patch and a model wrapper with `process_latent_in`; the GPU is
simulated.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
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
    latent_mask = torch.nn.functional.max_pool2d(latent_mask, (8, 8)).round()

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
candidate_vae = VAE(first_stage, device=gpu, output_device=gpu)      # --always-gpu
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
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["encode_vae_inpaint"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("latent_mask = torch.nn.functional.max_pool2d(latent_mask, (8, 8)).round()\n",
                  "latent_mask = torch.nn.functional.max_pool2d(latent_mask, (8, 8)).round().to(latent)\n")
CLEAN = False
