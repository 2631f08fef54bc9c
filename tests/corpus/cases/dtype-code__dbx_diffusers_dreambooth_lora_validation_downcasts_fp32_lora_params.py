"""diffusers `train_dreambooth_lora.py` with fp16 and `--validation_prompt`: validation casts the shared UNet, fp32 LoRA params included, to fp16, and the next step cannot unscale.

Source: https://github.com/huggingface/diffusers/pull/13895
Training with `--mixed_precision="fp16"` and `--validation_prompt` crashed on the first optimizer step after a
validation run with "ValueError: Attempting to unscale FP16 gradients." (#13124). The PR explains it: under
fp16, `cast_training_params(models, dtype=torch.float32)` keeps the trainable LoRA params in fp32, but the
validation pipeline is built with the same live `unet` object and `log_validation` runs
`pipeline.to(accelerator.device, dtype=torch_dtype)` with `torch_dtype=weight_dtype` (fp16), which downcasts the
LoRA params back to fp16; the next backward produces fp16 grads and `GradScaler.unscale_` raises. The fix drops
the dtype from that call: `pipeline = pipeline.to(accelerator.device)`.
Stand-ins: a UNet reduced to an fp16 frozen conv + one PEFT-style LoRA linear (lora_A/lora_B), diffusers'
`cast_training_params`, a pipeline whose `.to()` moves/casts its unet, `log_validation` reduced to the move and
one denoising call, and an Accelerator with a GradScaler, `autocast`, `backward` and `clip_grad_norm_`; one device
(the CPU, with CPU autocast to fp16).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
from contextlib import contextmanager
from types import SimpleNamespace
import torch
import torch.nn as nn
import torch.nn.functional as F

class LoraLinear(nn.Module):                          # peft.tuners.lora.Linear (stand-in)
    def __init__(self, base_layer, r=4, lora_alpha=4):
        super().__init__()
        self.base_layer = base_layer
        self.lora_A = nn.Linear(base_layer.in_features, r, bias=False)
        self.lora_B = nn.Linear(r, base_layer.out_features, bias=False)
        nn.init.zeros_(self.lora_B.weight)
        self.scaling = lora_alpha / r
    def forward(self, x):
        return self.base_layer(x) + self.lora_B(self.lora_A(x)) * self.scaling

class UNet2DConditionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_in = nn.Conv2d(4, 8, 3, padding=1)
        self.to_k = nn.Linear(8, 8)
        self.conv_out = nn.Conv2d(8, 4, 3, padding=1)
    def add_adapter(self, r=4):
        self.requires_grad_(False)
        self.to_k = LoraLinear(self.to_k, r=r)
    def forward(self, sample, timestep, encoder_hidden_states):
        h = self.conv_in(sample)
        h = h + self.to_k(encoder_hidden_states.mean(1))[:, :, None, None]
        return SimpleNamespace(sample=self.conv_out(h))

def cast_training_params(model, dtype=torch.float32):    # diffusers.training_utils
    if not isinstance(model, list):
        model = [model]
    for m in model:
        for param in m.parameters():
            if param.requires_grad:
                param.data = param.to(dtype)

class DiffusionPipeline:
    def __init__(self, unet):
        self.unet = unet
    @classmethod
    def from_pretrained(cls, name, unet=None, torch_dtype=None, **kwargs):
        return cls(unet=unet)
    def to(self, device=None, dtype=None):
        self.unet.to(device=device, dtype=dtype)
        return self
    def __call__(self, latents, prompt_embeds):
        return self.unet(latents, 0, prompt_embeds).sample

class Accelerator:
    def __init__(self, mixed_precision="fp16"):
        self.device = torch.device("cpu")
        self.mixed_precision = mixed_precision
        self.scaler = torch.amp.GradScaler("cpu")
    @contextmanager
    def autocast(self):
        with torch.autocast("cpu", dtype=torch.float16):
            yield
    def backward(self, loss):
        self.scaler.scale(loss).backward()
    def clip_grad_norm_(self, parameters, max_norm):
        self.scaler.unscale_(optimizer)
        return torch.nn.utils.clip_grad_norm_(parameters, max_norm)
    def unwrap_model(self, model):
        return model

def log_validation(pipeline, args, accelerator, pipeline_args, epoch, torch_dtype, is_final_validation=False):
    pipeline = pipeline.to(accelerator.device, dtype=torch_dtype)
    with torch.no_grad(), accelerator.autocast():
        images = [pipeline(**pipeline_args) for _ in range(args.num_validation_images)]
    return images

args = SimpleNamespace(mixed_precision="fp16", num_validation_images=1, max_grad_norm=1.0,
                       pretrained_model_name_or_path="stable-diffusion-v1-5/stable-diffusion-v1-5")
accelerator = Accelerator(args.mixed_precision)
weight_dtype = torch.float16

unet = UNet2DConditionModel()
unet.add_adapter(r=4)
unet.to(accelerator.device, dtype=weight_dtype)
if args.mixed_precision == "fp16":
    # only upcast trainable parameters (LoRA) into fp32
    cast_training_params(unet, dtype=torch.float32)
params_to_optimize = list(filter(lambda p: p.requires_grad, unet.parameters()))
optimizer = torch.optim.AdamW(params_to_optimize, lr=1e-4)

# validation at the end of an epoch
pipeline = DiffusionPipeline.from_pretrained(args.pretrained_model_name_or_path,
                                             unet=accelerator.unwrap_model(unet), torch_dtype=weight_dtype)
pipeline_args = {"latents": torch.randn(1, 4, 8, 8, dtype=weight_dtype),
                 "prompt_embeds": torch.randn(1, 7, 8, dtype=weight_dtype)}
images = log_validation(pipeline, args, accelerator, pipeline_args, epoch=0, torch_dtype=weight_dtype)
del pipeline

noisy_latents = torch.randn(2, 4, 8, 8, dtype=weight_dtype)
encoder_hidden_states = torch.randn(2, 7, 8, dtype=weight_dtype)
noise = torch.randn(2, 4, 8, 8, dtype=weight_dtype)
timesteps = torch.randint(0, 1000, (2,))
'''
CELL = '''
with accelerator.autocast():
    model_pred = unet(noisy_latents, timesteps, encoder_hidden_states).sample
    loss = F.mse_loss(model_pred.float(), noise.float(), reduction="mean")
accelerator.backward(loss)
accelerator.clip_grad_norm_(params_to_optimize, args.max_grad_norm)
accelerator.scaler.step(optimizer)
accelerator.scaler.update()
optimizer.zero_grad()
'''
EXPECT_ERROR = "Attempting to unscale FP16 gradients"
CULPRITS = ["log_validation"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    pipeline = pipeline.to(accelerator.device, dtype=torch_dtype)",
                  "    pipeline = pipeline.to(accelerator.device)")
CLEAN = False
