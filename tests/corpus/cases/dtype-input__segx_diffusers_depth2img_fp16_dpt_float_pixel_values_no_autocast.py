"""diffusers StableDiffusionDepth2ImgPipeline in fp16 on a non-CUDA device: the DPT depth estimator is half, its pixel_values stay float32 and no autocast covers the call.

Source: https://github.com/huggingface/diffusers/issues/8233
"Depth pipeline gives error at fp16": loading `stabilityai/stable-diffusion-2-depth` with
`torch_dtype=torch.float16` and `pipe.to("mps")` failed in `prepare_depth_map` with "RuntimeError:
Input type (MPSFloatType) and weight type (MPSHalfType) should be the same". The DPTImageProcessor
returns float32 `pixel_values`, moved with `pixel_values.to(device=device)` only; the pipeline relied
on `torch.autocast("cuda", dtype=dtype) if device.type == "cuda" else contextlib.nullcontext()`, so
off CUDA the half-precision `depth_estimator` (DPTForDepthEstimation) got float32 input. The
reporter's fix, merged as PR #8321, casts the input: `pixel_values.to(device=device, dtype=dtype)`.
Here the CPU stands in for MPS (no autocast branch either). Stand-ins: DPTForDepthEstimation
reduced to a conv/batch-norm hybrid stem and a depth head, the feature extractor to a resize +
normalize returning float32, the UNet/VAE to one conv over the latents and the depth channel.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import contextlib
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class DPTImageProcessor:
    """Stand-in: resize to 32x32, normalize, return float32 pixel_values."""
    def __call__(self, images, return_tensors="pt"):
        arr = np.stack([np.asarray(im, dtype=np.float32) / 255.0 for im in images]).transpose(0, 3, 1, 2)
        pv = F.interpolate(torch.from_numpy(arr), size=(32, 32), mode="bilinear")
        return type("BatchFeature", (), {"pixel_values": (pv - 0.5) / 0.5})()

class DPTForDepthEstimation(nn.Module):
    """Stand-in: hybrid (conv + batch-norm) stem and depth head."""
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        self.head = nn.Sequential(nn.Conv2d(16, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 1), nn.ReLU())

    def forward(self, pixel_values):
        predicted_depth = self.head(self.backbone(pixel_values)).squeeze(1)
        return type("DepthEstimatorOutput", (), {"predicted_depth": predicted_depth})()

class StableDiffusionDepth2ImgPipeline:
    """Stand-in: the depth-conditioning path of the pipeline."""
    vae_scale_factor = 8

    def __init__(self, depth_estimator, feature_extractor, unet):
        self.depth_estimator = depth_estimator
        self.feature_extractor = feature_extractor
        self.unet = unet

    @classmethod
    def from_pretrained(cls, model_id, torch_dtype=torch.float32, variant=None):
        unet = nn.Conv2d(5, 4, 3, padding=1)
        return cls(DPTForDepthEstimation().eval().to(torch_dtype), DPTImageProcessor(), unet.to(torch_dtype))

    def to(self, device):
        self.depth_estimator.to(device)
        self.unet.to(device)
        return self

    @property
    def device(self):
        return next(self.unet.parameters()).device

    @property
    def dtype(self):
        return next(self.unet.parameters()).dtype

    def prepare_depth_map(self, image, depth_map, batch_size, do_classifier_free_guidance, dtype, device):
        width, height = image[0].size if hasattr(image[0], "size") and not hasattr(image[0], "shape") else image[0].shape[1::-1]
        if depth_map is None:
            pixel_values = self.feature_extractor(images=image, return_tensors="pt").pixel_values
            pixel_values = pixel_values.to(device=device)
            # The DPT-Hybrid model uses batch-norm layers which are not compatible with fp16.
            # So we use `torch.autocast` here for half precision inference.
            context_manger = torch.autocast("cuda", dtype=dtype) if device.type == "cuda" else contextlib.nullcontext()
            with context_manger:
                depth_map = self.depth_estimator(pixel_values).predicted_depth
        else:
            depth_map = depth_map.to(device=device, dtype=dtype)
        depth_map = torch.nn.functional.interpolate(
            depth_map.unsqueeze(1),
            size=(height // self.vae_scale_factor, width // self.vae_scale_factor),
            mode="bilinear",
            align_corners=False,
        )
        depth_min = torch.amin(depth_map, dim=[1, 2, 3], keepdim=True)
        depth_max = torch.amax(depth_map, dim=[1, 2, 3], keepdim=True)
        depth_map = 2.0 * (depth_map - depth_min) / (depth_max - depth_min + 1e-6) - 1.0
        depth_map = depth_map.to(dtype)
        return torch.cat([depth_map] * 2) if do_classifier_free_guidance else depth_map

    @torch.no_grad()
    def __call__(self, prompt, image, strength=0.8, guidance_scale=7.5):
        device, dtype = self.device, self.dtype
        depth_mask = self.prepare_depth_map([image], None, 1, guidance_scale > 1, dtype, device)
        latents = torch.randn(depth_mask.shape[0], 4, *depth_mask.shape[2:], dtype=dtype, device=device)
        noise_pred = self.unet(torch.cat([latents, depth_mask], dim=1))
        return noise_pred

device = "cpu"                                   # "mps" in the report; the CPU has no autocast branch either
model_id = "stabilityai/stable-diffusion-2-depth"
pipe = StableDiffusionDepth2ImgPipeline.from_pretrained(model_id, torch_dtype=torch.float16, variant="fp16")
pipe = pipe.to(device)

init_image = np.random.default_rng(0).integers(0, 255, (64, 96, 3)).astype(np.uint8)   # load_image(url)
'''
CELL = '''
images = pipe(prompt="Two golden retriever puppies.", image=init_image, strength=0.7)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "must have the same dtype")
CULPRITS = ["pipe"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            pixel_values = pixel_values.to(device=device)\n",
                  "            pixel_values = pixel_values.to(device=device, dtype=dtype)\n")
CLEAN = False
