"""DreamBooth with fp16 and `--save_steps`: after the checkpoint save, the fp32 UNet gets fp16 latents.

Source: https://github.com/huggingface/diffusers/issues/1566
`train_dreambooth.py --mixed_precision=fp16 --save_steps 5` crashed right after writing a checkpoint,
at `model_pred = unet(noisy_latents, timesteps, encoder_hidden_states)`, with "Input type
(torch.cuda.HalfTensor) and weight type (torch.cuda.FloatTensor) should be the same". The save block
built the pipeline from `accelerator.unwrap_model(unet)`, which (default `keep_fp32_wrapper=False`)
strips the mixed-precision autocast wrapper from the *training* UNet's forward; the fix (PR 1567/1618)
passes `keep_fp32_wrapper=True`. Stand-in: an Accelerator whose `prepare` wraps `forward` in autocast
and whose `unwrap_model` removes it, a tiny UNet, and a pipeline that only holds the modules; CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class Accelerator:
    def __init__(self, mixed_precision="fp16"):
        self.mixed_precision = mixed_precision
        self.device = torch.device("cpu")

    def prepare(self, model):
        model._original_forward = model.forward
        forward = model.forward
        def autocast_forward(*args, **kwargs):
            with torch.autocast(self.device.type, dtype=torch.float16):
                return forward(*args, **kwargs)
        model.forward = autocast_forward
        return model

    def unwrap_model(self, model, keep_fp32_wrapper=False):
        if not keep_fp32_wrapper and hasattr(model, "_original_forward"):
            model.forward = model._original_forward
            del model._original_forward
        return model

class UNet2DConditionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_in = nn.Conv2d(4, 8, 3, padding=1)
        self.proj = nn.Linear(16, 8)
        self.conv_out = nn.Conv2d(8, 4, 3, padding=1)

    def forward(self, sample, timesteps, encoder_hidden_states):
        h = self.conv_in(sample)
        h = h + self.proj(encoder_hidden_states).mean(1)[:, :, None, None]
        return self.conv_out(h)

class DiffusionPipeline:
    def __init__(self, unet, text_encoder):
        self.unet, self.text_encoder = unet, text_encoder

    def save_pretrained(self, path):
        pass

accelerator = Accelerator(mixed_precision="fp16")
weight_dtype = torch.float16
unet = accelerator.prepare(UNet2DConditionModel())          # trained in fp32 under autocast
text_encoder = nn.Embedding(100, 16).to(dtype=weight_dtype)  # frozen, cast to weight_dtype
latents = torch.randn(1, 4, 16, 16).to(dtype=weight_dtype)   # vae.encode(...) in fp16
noise = torch.randn_like(latents)
timesteps = torch.randint(0, 1000, (1,))
noisy_latents = latents + noise
encoder_hidden_states = text_encoder(torch.randint(0, 100, (1, 7)))

global_step = 5
if global_step % 5 == 0:                                    # args.save_steps
    pipeline = DiffusionPipeline(
        unet=accelerator.unwrap_model(unet),
        text_encoder=accelerator.unwrap_model(text_encoder),
    )
    pipeline.save_pretrained("checkpoint-5")
'''
CELL = '''
model_pred = unet(noisy_latents, timesteps, encoder_hidden_states)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "same dtype")
CULPRITS = ["unet"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("unet=accelerator.unwrap_model(unet),", "unet=accelerator.unwrap_model(unet, True),")
CLEAN = False
