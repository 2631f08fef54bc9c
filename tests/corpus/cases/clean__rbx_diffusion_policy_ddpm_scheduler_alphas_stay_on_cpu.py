"""Look-alike: Diffusion Policy training loss: the DDPMScheduler's `alphas_cumprod` is a CPU tensor outside the policy module; `add_noise` moves it to the samples' device.

Source: https://github.com/real-stanford/diffusion_policy (diffusion_policy/policy/diffusion_unet_lowdim_policy.py, compute_loss; the scheduler is diffusers' DDPMScheduler, scheduling_ddpm.py add_noise)
`DiffusionUnetLowdimPolicy` keeps `self.noise_scheduler`, a plain diffusers object whose `alphas_cumprod` is
built on the CPU and never seen by `policy.to(device)`. `compute_loss` draws `noise` and `timesteps` with
`device=trajectory.device` and calls `noise_scheduler.add_noise(trajectory, noise, timesteps)`, which does
`self.alphas_cumprod = self.alphas_cumprod.to(device=original_samples.device)` and moves `timesteps` before
indexing, so the forward-diffusion step runs on the GPU. The LinearNormalizer's parameters move with the
policy. Stand-ins: ConditionalUnet1D reduced to a timestep-embedded MLP over the action trajectory with
global obs conditioning; the inpainting mask line of compute_loss is left out (global-cond config, where
the mask is all False). The GPU is simulated with meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import math
from types import SimpleNamespace
import torch
from torch import nn
import torch.nn.functional as F

device = torch.device("meta")   # the GPU, simulated with meta

class DDPMScheduler:
    def __init__(self, num_train_timesteps=100, beta_start=0.0001, beta_end=0.02,
                 beta_schedule="squaredcos_cap_v2", prediction_type="epsilon"):
        self.config = SimpleNamespace(num_train_timesteps=num_train_timesteps, prediction_type=prediction_type)
        steps = torch.arange(num_train_timesteps + 1, dtype=torch.float64) / num_train_timesteps
        alphas_bar = torch.cos((steps + 0.008) / 1.008 * math.pi / 2) ** 2
        betas = torch.clamp(1 - alphas_bar[1:] / alphas_bar[:-1], max=0.999).float()
        self.alphas = 1.0 - betas
        self.alphas_cumprod = torch.cumprod(self.alphas, dim=0)

    def add_noise(self, original_samples, noise, timesteps):
        self.alphas_cumprod = self.alphas_cumprod.to(device=original_samples.device)
        alphas_cumprod = self.alphas_cumprod.to(dtype=original_samples.dtype)
        timesteps = timesteps.to(original_samples.device)
        sqrt_alpha_prod = alphas_cumprod[timesteps] ** 0.5
        sqrt_alpha_prod = sqrt_alpha_prod.flatten()
        while len(sqrt_alpha_prod.shape) < len(original_samples.shape):
            sqrt_alpha_prod = sqrt_alpha_prod.unsqueeze(-1)
        sqrt_one_minus_alpha_prod = (1 - alphas_cumprod[timesteps]) ** 0.5
        sqrt_one_minus_alpha_prod = sqrt_one_minus_alpha_prod.flatten()
        while len(sqrt_one_minus_alpha_prod.shape) < len(original_samples.shape):
            sqrt_one_minus_alpha_prod = sqrt_one_minus_alpha_prod.unsqueeze(-1)
        return sqrt_alpha_prod * original_samples + sqrt_one_minus_alpha_prod * noise

class SinusoidalPosEmb(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        half_dim = self.dim // 2
        emb = math.log(10000) / (half_dim - 1)
        emb = torch.exp(torch.arange(half_dim, device=x.device) * -emb)
        emb = x[:, None] * emb[None, :]
        return torch.cat((emb.sin(), emb.cos()), dim=-1)

class ConditionalUnet1D(nn.Module):
    def __init__(self, input_dim, global_cond_dim, dsed=32, hidden=64):
        super().__init__()
        self.diffusion_step_encoder = nn.Sequential(SinusoidalPosEmb(dsed), nn.Linear(dsed, dsed * 4), nn.Mish(),
                                                    nn.Linear(dsed * 4, dsed))
        self.cond_proj = nn.Linear(dsed + global_cond_dim, hidden)
        self.inp = nn.Linear(input_dim, hidden)
        self.out = nn.Linear(hidden, input_dim)

    def forward(self, sample, timestep, local_cond=None, global_cond=None):
        global_feature = self.diffusion_step_encoder(timestep)
        global_feature = torch.cat([global_feature, global_cond], dim=-1)
        h = self.inp(sample) + self.cond_proj(global_feature)[:, None, :]
        return self.out(F.mish(h))

class SingleFieldLinearNormalizer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.params_dict = nn.ParameterDict({
            "scale": nn.Parameter(torch.full((dim,), 0.5), requires_grad=False),
            "offset": nn.Parameter(torch.zeros(dim), requires_grad=False),
        })

    def normalize(self, x):
        return x * self.params_dict["scale"] + self.params_dict["offset"]

class LinearNormalizer(nn.Module):
    def __init__(self, dims):
        super().__init__()
        self.params_dict = nn.ModuleDict({k: SingleFieldLinearNormalizer(d) for k, d in dims.items()})

    def normalize(self, batch):
        return {k: self.params_dict[k].normalize(v) for k, v in batch.items()}

class DiffusionUnetLowdimPolicy(nn.Module):
    def __init__(self, model, noise_scheduler, horizon, obs_dim, action_dim, n_obs_steps):
        super().__init__()
        self.model = model
        self.noise_scheduler = noise_scheduler
        self.normalizer = LinearNormalizer({"obs": obs_dim, "action": action_dim})
        self.horizon, self.n_obs_steps = horizon, n_obs_steps
        self.obs_as_global_cond = True

    def compute_loss(self, batch):
        nbatch = self.normalizer.normalize(batch)
        obs = nbatch["obs"]
        action = nbatch["action"]
        trajectory = action
        global_cond = obs[:, :self.n_obs_steps, :].reshape(obs.shape[0], -1)
        noise = torch.randn(trajectory.shape, device=trajectory.device)
        bsz = trajectory.shape[0]
        timesteps = torch.randint(0, self.noise_scheduler.config.num_train_timesteps,
                                  (bsz,), device=trajectory.device).long()
        noisy_trajectory = self.noise_scheduler.add_noise(trajectory, noise, timesteps)
        pred = self.model(noisy_trajectory, timesteps, local_cond=None, global_cond=global_cond)
        target = noise
        loss = F.mse_loss(pred, target, reduction="none")
        return loss.reshape(bsz, -1).mean(dim=-1).mean()

obs_dim, action_dim, horizon, n_obs_steps = 20, 2, 16, 2
noise_scheduler = DDPMScheduler(num_train_timesteps=100)
model = ConditionalUnet1D(input_dim=action_dim, global_cond_dim=obs_dim * n_obs_steps)
policy = DiffusionUnetLowdimPolicy(model, noise_scheduler, horizon, obs_dim, action_dim, n_obs_steps)
policy.to(device)
batch = {"obs": torch.randn(8, horizon, obs_dim), "action": torch.randn(8, horizon, action_dim)}
'''
CELL = '''
batch = {k: v.to(device, non_blocking=True) for k, v in batch.items()}
raw_loss = policy.compute_loss(batch)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
