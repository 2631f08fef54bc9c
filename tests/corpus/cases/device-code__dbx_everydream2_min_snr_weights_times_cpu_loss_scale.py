"""EveryDream2 trainer with `--min_snr_gamma`: the GPU min-SNR weights are multiplied into the batch's CPU `loss_scale`.

Source: https://github.com/victorchall/EveryDream2trainer/pull/240
"I was getting an error when using the min SNR gamma option" (a device mismatch). In `train.py`,
`get_model_prediction_and_target` receives `loss_scale=batch["loss_scale"]`, which the collate function
builds on the CPU (`torch.tensor([example.get("loss_scale", 1) ...])`) and which the function only moves at
the very end (`loss_scale.to(unet.device)`). The min-SNR branch added before that computes
`mse_loss_weights` from `compute_snr(timesteps, ...)` on the timesteps' device (the GPU) and does
`loss_scale = loss_scale * mse_loss_weights`. The merged fix:
`loss_scale = loss_scale * mse_loss_weights.to(loss_scale.device)`.
Stand-ins: the UNet, VAE, CLIP text encoder and DDPM scheduler reduced to shapes; `compute_snr` and
`add_noise` gather with `index_select` instead of `[timesteps]`, the all-zero check on `alphas_cumprod` is left
out and `mse_loss_weights[snr == 0] = 1.0` is written `masked_fill_` (the simulated GPU cannot index or read
values); the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.cuda.amp import autocast

class DDPMScheduler:                                   # diffusers (stand-in)
    def __init__(self, num_train_timesteps=1000):
        betas = torch.linspace(0.00085 ** 0.5, 0.012 ** 0.5, num_train_timesteps) ** 2
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
        self.config = SimpleNamespace(num_train_timesteps=num_train_timesteps, prediction_type="epsilon")
    def add_noise(self, original_samples, noise, timesteps):
        alphas_cumprod = self.alphas_cumprod.to(device=original_samples.device, dtype=original_samples.dtype)
        a = torch.index_select(alphas_cumprod, 0, timesteps)[:, None, None, None]
        return a ** 0.5 * original_samples + (1 - a) ** 0.5 * noise

class _Latents:
    def __init__(self, mean):
        self.mean = mean
    def sample(self):
        return self.mean + torch.randn_like(self.mean)

class AutoencoderKL(nn.Module):
    def __init__(self):
        super().__init__()
        self.quant_conv = nn.Conv2d(3, 4, 8, stride=8)
    def encode(self, x, return_dict=True):
        return (_Latents(self.quant_conv(x)),)

class CLIPTextModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.token_embedding = nn.Embedding(100, 32)
        self.final_layer_norm = nn.LayerNorm(32)
    @property
    def device(self):
        return self.token_embedding.weight.device
    def forward(self, input_ids, output_hidden_states=False):
        h = self.final_layer_norm(self.token_embedding(input_ids))
        return SimpleNamespace(last_hidden_state=h, hidden_states=(h,))

class UNet2DConditionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)
        self.ctx = nn.Linear(32, 4)
    @property
    def device(self):
        return self.conv.weight.device
    def forward(self, sample, timestep, encoder_hidden_states):
        out = self.conv(sample) + self.ctx(encoder_hidden_states.mean(1))[:, :, None, None]
        return SimpleNamespace(sample=out)

def compute_snr(timesteps, noise_scheduler):
    alphas_cumprod = noise_scheduler.alphas_cumprod
    sqrt_alphas_cumprod = alphas_cumprod**0.5
    sqrt_one_minus_alphas_cumprod = (1.0 - alphas_cumprod) ** 0.5
    sqrt_alphas_cumprod = torch.index_select(sqrt_alphas_cumprod.to(device=timesteps.device), 0, timesteps).float()
    while len(sqrt_alphas_cumprod.shape) < len(timesteps.shape):
        sqrt_alphas_cumprod = sqrt_alphas_cumprod[..., None]
    alpha = sqrt_alphas_cumprod.expand(timesteps.shape)
    sqrt_one_minus_alphas_cumprod = torch.index_select(
        sqrt_one_minus_alphas_cumprod.to(device=timesteps.device), 0, timesteps).float()
    while len(sqrt_one_minus_alphas_cumprod.shape) < len(timesteps.shape):
        sqrt_one_minus_alphas_cumprod = sqrt_one_minus_alphas_cumprod[..., None]
    sigma = sqrt_one_minus_alphas_cumprod.expand(timesteps.shape)
    return (alpha / sigma) ** 2

args = SimpleNamespace(amp=False, clip_skip=0, min_snr_gamma=5, zero_frequency_noise_ratio=0.02)
device = torch.device("cuda:0")
noise_scheduler = DDPMScheduler()
vae = AutoencoderKL().to(device)
text_encoder = CLIPTextModel().to(device)
unet = UNet2DConditionModel().to(device)

def get_model_prediction_and_target(image, tokens, zero_frequency_noise_ratio=0.0, return_loss=False, loss_scale=None):
    with torch.no_grad():
        with autocast(enabled=args.amp):
            pixel_values = image.to(memory_format=torch.contiguous_format).to(unet.device)
            latents = vae.encode(pixel_values, return_dict=False)
        del pixel_values
        latents = latents[0].sample() * 0.18215

        if zero_frequency_noise_ratio != None:
            if zero_frequency_noise_ratio < 0:
                zero_frequency_noise_ratio = 0
            zero_frequency_noise = zero_frequency_noise_ratio * torch.randn(latents.shape[0], latents.shape[1], 1, 1, device=latents.device)
            noise = torch.randn_like(latents) + zero_frequency_noise

        bsz = latents.shape[0]
        timesteps = torch.randint(0, noise_scheduler.config.num_train_timesteps, (bsz,), device=latents.device)
        timesteps = timesteps.long()
        cuda_caption = tokens.to(text_encoder.device)

    encoder_hidden_states = text_encoder(cuda_caption, output_hidden_states=True)
    if args.clip_skip > 0:
        encoder_hidden_states = text_encoder.final_layer_norm(encoder_hidden_states.hidden_states[-args.clip_skip])
    else:
        encoder_hidden_states = encoder_hidden_states.last_hidden_state

    noisy_latents = noise_scheduler.add_noise(latents, noise, timesteps)
    target = noise
    del noise, latents, cuda_caption

    with autocast(enabled=args.amp):
        model_pred = unet(noisy_latents, timesteps, encoder_hidden_states).sample

    if return_loss:
        if loss_scale is None:
            loss_scale = torch.ones(model_pred.shape[0], dtype=torch.float)

        if args.min_snr_gamma is not None:
            snr = compute_snr(timesteps, noise_scheduler)
            mse_loss_weights = (
                    torch.stack(
                        [snr, args.min_snr_gamma * torch.ones_like(timesteps)], dim=1
                    ).min(dim=1)[0]
                    / snr
            )
            mse_loss_weights.masked_fill_(snr == 0, 1.0)
            loss_scale = loss_scale * mse_loss_weights

        loss = F.mse_loss(model_pred.float(), target.float(), reduction="none")
        loss = loss.mean(dim=list(range(1, len(loss.shape)))) * loss_scale.to(unet.device)
        loss = loss.mean()
        return model_pred, target, loss
    return model_pred, target

examples = [{"image": torch.randn(3, 32, 32), "tokens": torch.randint(0, 100, (8,)), "loss_scale": 1.0},
            {"image": torch.randn(3, 32, 32), "tokens": torch.randint(0, 100, (8,)), "loss_scale": 0.5}]
batch = {                                              # data/every_dream.py collate_fn
    "image": torch.stack([e["image"] for e in examples]),
    "tokens": torch.stack([e["tokens"] for e in examples]),
    "runt_size": 0,
    "loss_scale": torch.tensor([example.get("loss_scale", 1) for example in examples]),
}
'''
CELL = '''
model_pred, target, loss = get_model_prediction_and_target(batch["image"],
                                                           batch["tokens"],
                                                           args.zero_frequency_noise_ratio,
                                                           return_loss=True,
                                                           loss_scale=batch["loss_scale"])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["get_model_prediction_and_target"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("loss_scale = loss_scale * mse_loss_weights",
                  "loss_scale = loss_scale * mse_loss_weights.to(loss_scale.device)")
CLEAN = False
