"""text-to-image LoRA validation under fp16: the unwrapped UNet still returns float32, and the fp16 VAE refuses the float32 latents.

Source: https://github.com/huggingface/diffusers/pull/6259
"fix RuntimeError: Input type (float) and bias type (c10::Half) should be the same in
train_text_to_image_lora.py": with `--mixed_precision=fp16` the validation pipeline is built from
`accelerator.unwrap_model(unet)` and `torch_dtype=weight_dtype` (fp16 VAE and text encoder). The unwrapped
UNet keeps accelerate's fp32 output wrapper (`keep_fp32_wrapper=True`), so the scheduler's latents become
float32 and the fp16 VAE's first conv raises. The fix wraps the validation generation in autocast
(`with torch.cuda.amp.autocast():`; later `torch.autocast(accelerator.device.type)` in `log_validation`).
Stand-ins: an `Accelerator` whose `prepare` wraps forward in autocast + `convert_outputs_to_fp32` and whose
`unwrap_model` keeps that wrapper, a tiny text encoder / UNet / VAE decoder and a `StableDiffusionPipeline`
with a plain Euler-style loop; the validation loop sits in `log_validation` as in later versions.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
from contextlib import nullcontext
from types import SimpleNamespace
import torch
import torch.nn as nn


def convert_outputs_to_fp32(forward):
    """accelerate.utils.convert_outputs_to_fp32."""
    def wrapped(*args, **kwargs):
        out = forward(*args, **kwargs)
        if isinstance(out, torch.Tensor) and out.dtype in (torch.float16, torch.bfloat16):
            return out.float()
        return out
    return wrapped


class Accelerator:
    def __init__(self, mixed_precision="no"):
        self.mixed_precision = mixed_precision
        self.device = torch.device("cpu")
        self.trackers = []

    def prepare(self, model):
        if self.mixed_precision == "fp16":
            model.forward = convert_outputs_to_fp32(
                torch.autocast(self.device.type, dtype=torch.float16)(model.forward))
        return model

    def unwrap_model(self, model, keep_fp32_wrapper=True):
        return model   # the fp32 output wrapper stays on `forward`


class CLIPTextModel(nn.Module):
    def __init__(self, vocab=64, dim=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, dim)

    @property
    def dtype(self):
        return self.proj.weight.dtype

    def forward(self, input_ids):
        return self.proj(self.embed(input_ids))


class UNet2DConditionModel(nn.Module):
    def __init__(self, ch=8, cross=16):
        super().__init__()
        self.conv_in = nn.Conv2d(4, ch, 3, padding=1)
        self.to_k = nn.Linear(cross, ch)
        self.conv_out = nn.Conv2d(ch, 4, 3, padding=1)

    def forward(self, sample, timestep, encoder_hidden_states):
        h = self.conv_in(sample) + self.to_k(encoder_hidden_states).mean(1)[:, :, None, None]
        return self.conv_out(torch.nn.functional.silu(h))


class AutoencoderKL(nn.Module):
    def __init__(self, ch=8):
        super().__init__()
        self.post_quant_conv = nn.Conv2d(4, 4, 1)
        self.conv_in = nn.Conv2d(4, ch, 3, padding=1)
        self.conv_out = nn.Conv2d(ch, 3, 3, padding=1)

    def decode(self, z):
        return SimpleNamespace(sample=self.conv_out(torch.nn.functional.silu(self.conv_in(self.post_quant_conv(z)))))


class StableDiffusionPipeline:
    def __init__(self, vae, text_encoder, unet):
        self.vae, self.text_encoder, self.unet = vae, text_encoder, unet

    def to(self, device):
        return self

    def set_progress_bar_config(self, **kwargs):
        pass

    def __call__(self, prompt, num_inference_steps=30, generator=None):
        input_ids = torch.tensor([[hash(w) % 64 for w in prompt.split()]])
        prompt_embeds = self.text_encoder(input_ids).to(dtype=self.text_encoder.dtype)
        latents = torch.randn(1, 4, 8, 8, generator=generator).to(prompt_embeds.dtype)
        for t in torch.linspace(999, 0, num_inference_steps):
            noise_pred = self.unet(latents, t, encoder_hidden_states=prompt_embeds)
            latents = latents - noise_pred / num_inference_steps       # scheduler.step
        image = self.vae.decode(latents / 0.18215).sample
        return SimpleNamespace(images=[(image / 2 + 0.5).clamp(0, 1)[0]])


def log_validation(pipeline, args, accelerator, epoch):
    pipeline = pipeline.to(accelerator.device)
    pipeline.set_progress_bar_config(disable=True)
    generator = torch.Generator(device=accelerator.device)
    if args.seed is not None:
        generator = generator.manual_seed(args.seed)
    images = []
    for _ in range(args.num_validation_images):
        images.append(pipeline(args.validation_prompt, num_inference_steps=30, generator=generator).images[0])
    return images


args = SimpleNamespace(seed=0, num_validation_images=2, validation_prompt="a cute pokemon")
accelerator = Accelerator(mixed_precision="fp16")
weight_dtype = torch.float16 if accelerator.mixed_precision == "fp16" else torch.float32

unet = UNet2DConditionModel()
unet = accelerator.prepare(unet)          # trained in fp32 under accelerate's autocast
epoch = 0
# create pipeline (DiffusionPipeline.from_pretrained(..., unet=accelerator.unwrap_model(unet), torch_dtype=weight_dtype))
pipeline = StableDiffusionPipeline(
    vae=AutoencoderKL().to(dtype=weight_dtype),
    text_encoder=CLIPTextModel().to(dtype=weight_dtype),
    unet=accelerator.unwrap_model(unet),
)
'''
CELL = '''
images = log_validation(pipeline, args, accelerator, epoch)
'''
EXPECT_ERROR = ("should be the same", "must have the same dtype", "expected scalar type")
CULPRITS = ["log_validation"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """    for _ in range(args.num_validation_images):
        images.append(pipeline(args.validation_prompt, num_inference_steps=30, generator=generator).images[0])""",
    """    with torch.autocast(accelerator.device.type):
        for _ in range(args.num_validation_images):
            images.append(pipeline(args.validation_prompt, num_inference_steps=30, generator=generator).images[0])""",
)
CLEAN = False
