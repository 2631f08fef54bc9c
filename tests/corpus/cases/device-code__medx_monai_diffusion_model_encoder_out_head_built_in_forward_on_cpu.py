"""MONAI anomaly-detection tutorial: `DiffusionModelEncoder` builds its `out` head inside `forward`, after `.to(device)`, on the CPU.

Source: https://github.com/Project-MONAI/tutorials/issues/2030
Running `anomalydetection_tutorial_classifier_guidance.ipynb` (classifier = `DiffusionModelEncoder`,
`classifier.to(device)`) failed in the training cell at `pred = classifier(noisy_img, timesteps)`
with a device mismatch raised from `nn.Linear.forward`. Cause and fix in MONAI issue #8577 / PR
#8578: since PR #8514 the encoder created its final `self.out = nn.Sequential(nn.Linear(h.shape[1],
512), ...)` lazily in `forward`, so the head is born on the CPU after the model was moved to the GPU;
the fix builds `self.out` in `__init__` from a new `input_shape` argument (defaulted to the
tutorial's image size), so `.to(device)` moves it.
Stand-ins: MONAI's `get_timestep_embedding` (`timesteps[:, None]` written `.unsqueeze(1)`, since
the CPU simulation cannot index fake cuda tensors), a reduced `DiffusionModelEncoder` (conv_in,
time-embedding MLP, down blocks with a time projection, lazy `out` head as in MONAI 1.5) and
`DDPMScheduler.add_noise`; images are 32x32. The training cell's `loss.backward()` /
`optimizer_cls.step()` are left out (no autograd in the simulation).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn


def get_timestep_embedding(timesteps, embedding_dim, max_period=10000):
    half_dim = embedding_dim // 2
    exponent = -math.log(max_period) * torch.arange(start=0, end=half_dim, dtype=torch.float32, device=timesteps.device)
    freqs = torch.exp(exponent / half_dim)
    args = timesteps.unsqueeze(1).float() * freqs.unsqueeze(0)
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class DownBlock(nn.Module):
    def __init__(self, in_ch, out_ch, temb_ch, add_downsample):
        super().__init__()
        self.conv = nn.Conv2d(in_ch, out_ch, 3, padding=1)
        self.time_emb_proj = nn.Linear(temb_ch, out_ch)
        self.downsampler = nn.Conv2d(out_ch, out_ch, 3, stride=2, padding=1) if add_downsample else None

    def forward(self, h, emb):
        h = F.silu(self.conv(h)) + self.time_emb_proj(F.silu(emb)).unsqueeze(-1).unsqueeze(-1)
        if self.downsampler is not None:
            h = self.downsampler(h)
        return h


class DiffusionModelEncoder(nn.Module):
    def __init__(self, spatial_dims, in_channels, out_channels, channels=(32, 64, 64),
                 attention_levels=(False, True, True), num_res_blocks=(1, 1, 1), num_head_channels=64,
                 with_conditioning=False):
        super().__init__()
        self.block_out_channels = channels
        self.out_channels = out_channels
        time_embed_dim = channels[0] * 4
        self.time_embed = nn.Sequential(nn.Linear(channels[0], time_embed_dim), nn.SiLU(),
                                        nn.Linear(time_embed_dim, time_embed_dim))
        self.conv_in = nn.Conv2d(in_channels, channels[0], 3, padding=1)
        self.down_blocks = nn.ModuleList()
        output_channel = channels[0]
        for i in range(len(channels)):
            input_channel, output_channel = output_channel, channels[i]
            self.down_blocks.append(DownBlock(input_channel, output_channel, time_embed_dim,
                                              add_downsample=i < len(channels) - 1))
        self.out = None

    def forward(self, x, timesteps, context=None, class_labels=None):
        t_emb = get_timestep_embedding(timesteps, self.block_out_channels[0]).to(dtype=x.dtype)
        emb = self.time_embed(t_emb)
        h = self.conv_in(x)
        for downsample_block in self.down_blocks:
            h = downsample_block(h, emb)
        h = h.reshape(h.shape[0], -1)
        if self.out is None:
            self.out = nn.Sequential(
                nn.Linear(h.shape[1], 512), nn.ReLU(), nn.Dropout(0.1), nn.Linear(512, self.out_channels)
            )
        h = self.out(h)
        return h


class DDPMScheduler:
    def __init__(self, num_train_timesteps=1000):
        betas = torch.linspace(0.0015, 0.0195, num_train_timesteps)
        self.alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)

    def add_noise(self, original_samples, noise, timesteps):
        self.alphas_cumprod = self.alphas_cumprod.to(device=original_samples.device, dtype=original_samples.dtype)
        timesteps = timesteps.to(original_samples.device)
        sqrt_alpha_cumprod = self.alphas_cumprod.index_select(0, timesteps).sqrt().view(-1, 1, 1, 1)
        sqrt_one_minus_alpha_prod = (1 - self.alphas_cumprod.index_select(0, timesteps)).sqrt().view(-1, 1, 1, 1)
        return sqrt_alpha_cumprod * original_samples + sqrt_one_minus_alpha_prod * noise


device = torch.device("cuda:0")
classifier = DiffusionModelEncoder(
    spatial_dims=2,
    in_channels=1,
    out_channels=2,
    channels=(32, 64, 64),
    attention_levels=(False, True, True),
    num_res_blocks=(1, 1, 1),
    num_head_channels=64,
    with_conditioning=False,
)
classifier.to(device)
scheduler = DDPMScheduler(num_train_timesteps=1000)
train_loader = [{"image": torch.rand(4, 1, 32, 32), "slice_label": torch.tensor([0.0, 1.0, 1.0, 0.0])}]
'''
CELL = '''
for data in train_loader:
    images = data["image"].to(device)
    classes = data["slice_label"].to(device)
    timesteps = torch.randint(0, 1000, (len(images),)).to(device)
    noise = torch.randn_like(images).to(device)
    noisy_img = scheduler.add_noise(images, noise, timesteps)  # add t steps of noise to the input image
    pred = classifier(noisy_img, timesteps)
    loss = F.cross_entropy(pred, classes.long())
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["classifier"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        self.out = None\n",
                  """        input_shape = (32, 32)   # PR #8578: new `input_shape` argument, defaulted to the tutorial's images
        n_down = len(channels) - 1
        in_dim = channels[-1] * int(np.prod([s // 2 ** n_down for s in input_shape]))
        self.out = nn.Sequential(nn.Linear(in_dim, 512), nn.ReLU(), nn.Dropout(0.1), nn.Linear(512, self.out_channels))
""")
CLEAN = False
