"""Look-alike: Stable Cascade's gradio app runs the prior in float32 and the decoder in float16; the prior's image embeddings are cast with `.to(device=device, dtype=decoder.dtype)` before the decoder.

Source: https://github.com/Stability-AI/StableCascade/blob/2aab881d9534e77acfc45d962a46e62c4f0989e6/gradio_app/app.py
`c_dtype = torch.bfloat16 if device.type == "cpu" else torch.float`; `prior = StableCascadePriorPipeline
.from_pretrained(..., torch_dtype=c_dtype)`, `decoder = StableCascadeDecoderPipeline.from_pretrained(...,
torch_dtype=torch.half)`, both `.to(device)`. `generate_decoder` passes
`image_embeddings=prior_embeds.to(device=device, dtype=decoder.dtype)`: two pipelines in two dtypes in one
namespace, bridged on purpose. Stand-ins: both diffusers pipelines reduced to a text encoder and one denoiser
step (prior: text -> 16-channel embeddings; decoder: embeddings + latents -> image latents); the seeded
`torch.Generator(device=device)` is left out and `torch.device("cuda")` is written `torch.device("cuda:0")`
(the fake-cuda simulation has no CUDA runtime).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class _Pipeline(nn.Module):
    @property
    def dtype(self):
        return next(self.parameters()).dtype
    @property
    def device(self):
        return next(self.parameters()).device

class StableCascadePriorPipeline(_Pipeline):
    def __init__(self):
        super().__init__()
        self.text_encoder = nn.Embedding(64, 32)
        self.prior = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 16))
    @classmethod
    def from_pretrained(cls, repo, torch_dtype=None):
        return cls().to(torch_dtype)
    def __call__(self, prompt, height=1024, width=1024, negative_prompt="", guidance_scale=4.0,
                 num_images_per_prompt=1, num_inference_steps=20):
        ids = torch.tensor([[hash(w) % 64 for w in prompt.split()]] * num_images_per_prompt, device=self.device)
        text = self.text_encoder(ids).mean(1)
        emb = self.prior(text).view(num_images_per_prompt, 16, 1, 1).expand(-1, -1, height // 128, width // 128)
        return type("PriorOut", (), {"image_embeddings": emb})()

class StableCascadeDecoderPipeline(_Pipeline):
    def __init__(self):
        super().__init__()
        self.effnet_mapper = nn.Conv2d(16, 4, 1)
        self.decoder = nn.Conv2d(8, 4, 3, padding=1)
    @classmethod
    def from_pretrained(cls, repo, torch_dtype=None):
        return cls().to(torch_dtype)
    def __call__(self, image_embeddings, prompt, negative_prompt="", guidance_scale=0.0, output_type="pil",
                 num_inference_steps=10, generator=None):
        cond = nn.functional.interpolate(self.effnet_mapper(image_embeddings), scale_factor=4)
        latents = torch.randn(cond.shape, generator=generator, device=self.device, dtype=self.dtype)
        for _ in range(2):
            latents = self.decoder(torch.cat([latents, cond], dim=1))
        return type("DecoderOut", (), {"images": latents})()

device = torch.device("cuda:0")
c_dtype = torch.bfloat16 if device.type == "cpu" else torch.float
prior = StableCascadePriorPipeline.from_pretrained("stabilityai/stable-cascade-prior", torch_dtype=c_dtype)
decoder = StableCascadeDecoderPipeline.from_pretrained("stabilityai/stable-cascade", torch_dtype=torch.half)
prior.to(device)
decoder.to(device)

def generate_prior(prompt, negative_prompt, generator, width, height, num_inference_steps, guidance_scale, num_images_per_prompt):
    prior_output = prior(
        prompt=prompt,
        height=height,
        width=width,
        negative_prompt=negative_prompt,
        guidance_scale=guidance_scale,
        num_images_per_prompt=num_images_per_prompt,
        num_inference_steps=num_inference_steps
    )
    return prior_output.image_embeddings

def generate_decoder(prior_embeds, prompt, negative_prompt, generator, num_inference_steps, guidance_scale):
    decoder_output = decoder(
        image_embeddings=prior_embeds.to(device=device, dtype=decoder.dtype),
        prompt=prompt,
        negative_prompt=negative_prompt,
        guidance_scale=guidance_scale,
        output_type="pil",
        num_inference_steps=num_inference_steps,
        generator=generator
    ).images
    return decoder_output
'''
CELL = '''
with torch.inference_mode():
    prompt = "An astronaut riding a green horse"
    generator = None
    prior_embeds = generate_prior(prompt=prompt, negative_prompt="", generator=generator, width=1024, height=1024,
                                  num_inference_steps=20, guidance_scale=4.0, num_images_per_prompt=2)
    decoder_output = generate_decoder(prior_embeds=prior_embeds, prompt=prompt, negative_prompt="",
                                      generator=generator, num_inference_steps=10, guidance_scale=0.0)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
