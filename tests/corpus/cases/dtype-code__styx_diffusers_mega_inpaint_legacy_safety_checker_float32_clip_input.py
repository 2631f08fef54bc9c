"""Stable Diffusion Mega `inpaint` in fp16: the legacy inpaint pipeline feeds float32 `pixel_values` to the fp16 safety checker.

Source: https://github.com/huggingface/diffusers/issues/1125
Running the community Stable Diffusion Mega pipeline with `torch_dtype=torch.float16, revision="fp16"`,
`pipe.inpaint(...)` (which builds `StableDiffusionInpaintPipelineLegacy(**self.components)`) failed
with a dtype mismatch at the end of `__call__`; the reporter's workaround was to drop `torch_dtype`.
The fix (PR #1137, "Fix dtype safety checker inpaint legacy") casts the CLIP feature extractor's
float32 output: `clip_input=safety_checker_input.pixel_values.to(text_embeddings.dtype)`. Run on the
CPU (a dtype bug); the text encoder, VAE, UNet, scheduler, feature extractor and safety checker are
small stand-ins with diffusers' names, and the denoising loop is one step.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from types import SimpleNamespace

class CLIPTextModel(nn.Module):
    """Stand-in: token embedding + projection; returns (last_hidden_state,)."""
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(100, 16)
        self.proj = nn.Linear(16, 16)

    def forward(self, input_ids):
        return (self.proj(self.embed(input_ids)),)

class AutoencoderKL(nn.Module):
    """Stand-in: encode -> latent_dist with sample(), decode -> .sample (8x up/down)."""
    def __init__(self):
        super().__init__()
        self.enc = nn.Conv2d(3, 8, 8, stride=8)
        self.dec = nn.ConvTranspose2d(4, 3, 8, stride=8)

    def encode(self, x):
        mean, logvar = self.enc(x).chunk(2, dim=1)
        return SimpleNamespace(latent_dist=SimpleNamespace(sample=lambda generator=None: mean))

    def decode(self, z):
        return SimpleNamespace(sample=self.dec(z))

class UNet2DConditionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
        self.ctx = nn.Linear(16, 4)

    def forward(self, sample, t, encoder_hidden_states):
        h = self.conv(sample) + self.ctx(encoder_hidden_states.mean(1))[:, :, None, None]
        return SimpleNamespace(sample=h)

class CLIPFeatureExtractor:
    """Stand-in: resizes/normalizes to float32 `pixel_values` (BatchFeature with .to(device))."""
    def __call__(self, images, return_tensors="pt"):
        x = torch.from_numpy(np.stack(images)).permute(0, 3, 1, 2).float()
        x = torch.nn.functional.interpolate(x, size=(32, 32), mode="bilinear")
        pixel_values = (x - 0.45) / 0.27
        out = SimpleNamespace(pixel_values=pixel_values)
        out.to = lambda device: SimpleNamespace(pixel_values=pixel_values.to(device))
        return out

class StableDiffusionSafetyChecker(nn.Module):
    """Stand-in: CLIP vision patch embedding + projection, cosine scores against concept embeds."""
    def __init__(self):
        super().__init__()
        self.vision_model = nn.Sequential(nn.Conv2d(3, 16, 8, stride=8), nn.Flatten(1), nn.LazyLinear(16))
        self.visual_projection = nn.Linear(16, 8, bias=False)
        self.concept_embeds = nn.Parameter(torch.ones(17, 8), requires_grad=False)

    @torch.no_grad()
    def forward(self, clip_input, images):
        image_embeds = self.visual_projection(self.vision_model(clip_input))
        cos_dist = nn.functional.normalize(image_embeds) @ nn.functional.normalize(self.concept_embeds).t()
        has_nsfw_concepts = [bool((row > 0.99).any()) for row in cos_dist.cpu().float()]
        return images, has_nsfw_concepts

class DDIMScheduler:
    def add_noise(self, x, noise, t):
        return x + 0.1 * noise

    def step(self, noise_pred, t, latents):
        return SimpleNamespace(prev_sample=latents - 0.1 * noise_pred)

class StableDiffusionInpaintPipelineLegacy:
    def __init__(self, vae, text_encoder, tokenizer, unet, scheduler, safety_checker, feature_extractor):
        self.vae, self.text_encoder, self.tokenizer, self.unet = vae, text_encoder, tokenizer, unet
        self.scheduler, self.safety_checker, self.feature_extractor = scheduler, safety_checker, feature_extractor
        self.device = torch.device("cpu")

    def numpy_to_pil(self, images):
        return [img for img in images]             # stand-in: keeps HWC arrays

    @torch.no_grad()
    def __call__(self, prompt, init_image, mask_image, strength=0.75):
        text_input_ids = self.tokenizer(prompt)
        text_embeddings = self.text_encoder(text_input_ids.to(self.device))[0]

        # encode the init image into latents and scale the latents
        latents_dtype = text_embeddings.dtype
        init_image = init_image.to(device=self.device, dtype=latents_dtype)
        init_latents = 0.18215 * self.vae.encode(init_image).latent_dist.sample()
        init_latents_orig = init_latents
        mask = mask_image.to(device=self.device, dtype=latents_dtype)

        noise = torch.randn(init_latents.shape, device=self.device, dtype=latents_dtype)
        latents = self.scheduler.add_noise(init_latents, noise, 0)
        for t in [0]:
            noise_pred = self.unet(latents, t, encoder_hidden_states=text_embeddings).sample
            latents = self.scheduler.step(noise_pred, t, latents).prev_sample
            init_latents_proper = self.scheduler.add_noise(init_latents_orig, noise, t)
            latents = (init_latents_proper * mask) + (latents * (1 - mask))

        latents = 1 / 0.18215 * latents
        image = self.vae.decode(latents).sample

        image = (image / 2 + 0.5).clamp(0, 1)
        image = image.cpu().permute(0, 2, 3, 1).float().numpy()

        if self.safety_checker is not None:
            safety_checker_input = self.feature_extractor(self.numpy_to_pil(image), return_tensors="pt").to(
                self.device
            )
            image, has_nsfw_concept = self.safety_checker(images=image, clip_input=safety_checker_input.pixel_values)
        else:
            has_nsfw_concept = None
        return SimpleNamespace(images=image, nsfw_content_detected=has_nsfw_concept)

class StableDiffusionMegaPipeline:
    """Stand-in for examples/community/stable_diffusion_mega.py."""
    def __init__(self, **components):
        self.components = components

    @torch.no_grad()
    def inpaint(self, prompt, init_image, mask_image, strength=0.8):
        return StableDiffusionInpaintPipelineLegacy(**self.components)(
            prompt=prompt, init_image=init_image, mask_image=mask_image, strength=strength)

safety_checker = StableDiffusionSafetyChecker()
safety_checker(torch.zeros(1, 3, 32, 32), [None])           # materialize the lazy layer
components = dict(vae=AutoencoderKL(), text_encoder=CLIPTextModel(),
                  tokenizer=lambda p: torch.tensor([[hash(w) % 100 for w in p.split()]]),
                  unet=UNet2DConditionModel(), scheduler=DDIMScheduler(),
                  safety_checker=safety_checker, feature_extractor=CLIPFeatureExtractor())
for name in ("vae", "text_encoder", "unet", "safety_checker"):
    components[name].to(torch.float16)                     # from_pretrained(..., torch_dtype=torch.float16, revision="fp16")
pipe = StableDiffusionMegaPipeline(**components)

init_image = torch.rand(1, 3, 64, 64) * 2 - 1               # preprocess_image(init_image)
mask_image = (torch.rand(1, 4, 8, 8) > 0.5).float()         # preprocess_mask(mask_image)
prompt = "a cat sitting on a bench"
'''
CELL = '''
images = pipe.inpaint(prompt=prompt, init_image=init_image, mask_image=mask_image, strength=0.75).images
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "same dtype")
CULPRITS = ["pipe"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""            image, has_nsfw_concept = self.safety_checker(images=image, clip_input=safety_checker_input.pixel_values)""",
                  """            image, has_nsfw_concept = self.safety_checker(
                images=image, clip_input=safety_checker_input.pixel_values.to(text_embeddings.dtype)
            )""")
CLEAN = False
