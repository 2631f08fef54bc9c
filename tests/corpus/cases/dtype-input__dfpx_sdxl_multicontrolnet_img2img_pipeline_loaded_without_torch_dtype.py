"""SDXL ControlNet img2img with two fp16 ControlNets and an fp16 VAE, but the pipeline itself loaded without `torch_dtype`.

Source: https://github.com/huggingface/diffusers/issues/7562
`StableDiffusionXLControlNetImg2ImgPipeline.from_pretrained("stabilityai/stable-diffusion-xl-base-1.0",
controlnet=[zoedepthnet, cannynet], vae=vae)` with both ControlNets and the VAE loaded in
`torch.float16` failed with "RuntimeError: Input type (float) and bias type (c10::Half) should be the
same". A commenter found that adding `torch_dtype=torch.float16` to the pipeline's `from_pretrained`
makes it disappear, and the maintainer confirmed: "we need the `torch_dtype` passed to the pipeline
object to obtain the internal dtype that is going to be used for prompt encoding, image encoding, etc."
(the pipeline's own UNet and text encoder stay float32, so the prompt embeddings and the image are
float32 while the passed-in VAE/ControlNets are fp16).
Stand-ins: tiny text encoder, UNet, ControlNets, fp16-fix VAE (force_upcast False) and the pipeline's
dtype flow; runs on the CPU (a dtype bug only), so offloading is left out.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

class CLIPTextModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(100, 32)
        self.norm = nn.LayerNorm(32)
    def forward(self, ids):
        return self.norm(self.embed(ids))

class UNet2DConditionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_in = nn.Conv2d(4, 16, 3, padding=1)
        self.cond = nn.Linear(32, 16)
        self.conv_out = nn.Conv2d(16, 4, 3, padding=1)
    def forward(self, sample, t, encoder_hidden_states, down_block_additional_residuals=None):
        h = self.conv_in(sample) + self.cond(encoder_hidden_states.mean(1))[:, :, None, None]
        if down_block_additional_residuals is not None:
            h = h + down_block_additional_residuals
        return self.conv_out(torch.relu(h))

class ControlNetModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.controlnet_cond_embedding = nn.Conv2d(3, 16, 8, stride=8)
        self.conv_in = nn.Conv2d(4, 16, 3, padding=1)
    @property
    def dtype(self):
        return next(self.parameters()).dtype
    @classmethod
    def from_pretrained(cls, name, torch_dtype=torch.float32):
        return cls().to(torch_dtype)
    def forward(self, sample, t, encoder_hidden_states, controlnet_cond, conditioning_scale=1.0):
        return (self.conv_in(sample) + self.controlnet_cond_embedding(controlnet_cond)) * conditioning_scale

class AutoencoderKL(nn.Module):
    def __init__(self):
        super().__init__()
        self.config = SimpleNamespace(scaling_factor=0.13025, force_upcast=False)
        self.encoder = nn.Conv2d(3, 4, 8, stride=8)
        self.decoder = nn.Sequential(nn.Upsample(scale_factor=8), nn.Conv2d(4, 3, 3, padding=1))
    @classmethod
    def from_pretrained(cls, name, torch_dtype=torch.float32):
        return cls().to(torch_dtype)
    def encode(self, x):
        return self.encoder(x)
    def decode(self, z):
        return self.decoder(z)

class StableDiffusionXLControlNetImg2ImgPipeline:
    def __init__(self, text_encoder, unet, vae, controlnet):
        self.text_encoder, self.unet, self.vae, self.controlnet = text_encoder, unet, vae, controlnet

    @classmethod
    def from_pretrained(cls, name, controlnet=None, vae=None, torch_dtype=torch.float32):
        text_encoder = CLIPTextModel().to(torch_dtype)        # loaded by the pipeline: gets torch_dtype
        unet = UNet2DConditionModel().to(torch_dtype)
        vae = vae if vae is not None else AutoencoderKL().to(torch_dtype)   # passed in: kept as is
        return cls(text_encoder, unet, vae, controlnet)

    def prepare_latents(self, image, dtype):
        image = image.to(dtype=dtype)
        if self.vae.config.force_upcast:
            image = image.float()
            self.vae.to(dtype=torch.float32)
        init_latents = self.vae.encode(image) * self.vae.config.scaling_factor
        return init_latents.to(dtype)

    @torch.no_grad()
    def __call__(self, prompt_ids, image, control_image, strength=0.5, num_inference_steps=4,
                 controlnet_conditioning_scale=(0.5, 0.5)):
        prompt_embeds = self.text_encoder(prompt_ids)
        dtype = prompt_embeds.dtype
        control_images = [img.to(dtype=cn.dtype) for img, cn in zip(control_image, self.controlnet)]
        latents = self.prepare_latents(image, dtype)
        for t in range(int(num_inference_steps * strength)):
            res = sum(cn(latents, t, prompt_embeds, ci, s)
                      for cn, ci, s in zip(self.controlnet, control_images, controlnet_conditioning_scale))
            latents = latents - 0.1 * self.unet(latents, t, prompt_embeds, down_block_additional_residuals=res)
        return SimpleNamespace(images=self.vae.decode(latents / self.vae.config.scaling_factor))

zoedepthnet = ControlNetModel.from_pretrained("diffusers/controlnet-zoe-depth-sdxl-1.0", torch_dtype=torch.float16)
cannynet = ControlNetModel.from_pretrained("diffusers/controlnet-canny-sdxl-1.0", torch_dtype=torch.float16)
vae = AutoencoderKL.from_pretrained("madebyollin/sdxl-vae-fp16-fix", torch_dtype=torch.float16)
pipe = StableDiffusionXLControlNetImg2ImgPipeline.from_pretrained(
  "stabilityai/stable-diffusion-xl-base-1.0",
  controlnet=[zoedepthnet, cannynet],
  vae=vae)
img = torch.rand(1, 3, 64, 64)                 # load_image("your_face.png"), preprocessed
processed_image_zoe = torch.rand(1, 3, 64, 64)
processed_image_canny = torch.rand(1, 3, 64, 64)
prompt_ids = torch.randint(0, 100, (1, 7))    # tokenized prompt
'''
CELL = '''
image = pipe(prompt_ids, image=img, control_image=[processed_image_zoe, processed_image_canny],
             strength=0.5, num_inference_steps=4, controlnet_conditioning_scale=(0.5, 0.5)).images
'''
EXPECT_ERROR = ("should be the same", "same dtype", "expected scalar type")
CULPRITS = ["pipe"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""  controlnet=[zoedepthnet, cannynet],
  vae=vae)""", """  controlnet=[zoedepthnet, cannynet],
  vae=vae, torch_dtype=torch.float16)""")
CLEAN = False
