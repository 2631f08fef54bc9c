"""Diffusion training with accelerate: `t.to(batch.device)` without assignment leaves the sampled timesteps on the CPU.

Source: https://github.com/huggingface/accelerate/issues/2251
The user's loop drew `t, weights = self.schedule_sampler.sample(batch.shape[0])` from an
improved-diffusion `UniformSampler` (which builds both with `th.from_numpy(...)` on the CPU) and
then wrote `t.to(batch.device)` and `weights.to(batch.device)` as statements; the loss failed with
a cuda/cpu device mismatch. The maintainer: "`.to` is not in-place ... change it to
`t = t.to(batch.device)`". Stand-in: the sampler and the q_sample part of `training_losses` (`_extract_into_tensor`'s
`arr[timesteps]` and `res[..., None]` written as `index_select` and `unsqueeze`: the simulator
cannot index a fake cuda tensor with `[]`).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import numpy as np
import torch as th
from torch import nn

class UniformSampler:
    def __init__(self, num_timesteps):
        self._weights = np.ones([num_timesteps])

    def weights(self):
        return self._weights

    def sample(self, batch_size):
        w = self.weights()
        p = w / np.sum(w)
        indices_np = np.random.choice(len(p), size=(batch_size,), p=p)
        indices = th.from_numpy(indices_np).long()
        weights_np = 1 / (len(p) * p[indices_np])
        weights = th.from_numpy(weights_np).float()
        return indices, weights

class GaussianDiffusion:
    def __init__(self, num_timesteps=50):
        betas = np.linspace(1e-4, 0.02, num_timesteps)
        self.sqrt_alphas_cumprod = np.sqrt(np.cumprod(1.0 - betas))
        self.sqrt_one_minus_alphas_cumprod = np.sqrt(1.0 - np.cumprod(1.0 - betas))

    def _extract(self, arr, timesteps, broadcast_shape):
        res = th.from_numpy(arr).to(device=timesteps.device).index_select(0, timesteps).float()
        while len(res.shape) < len(broadcast_shape):
            res = res.unsqueeze(-1)
        return res.expand(broadcast_shape)

    def training_losses(self, model, x_start, t):
        noise = th.randn_like(x_start)
        x_t = (self._extract(self.sqrt_alphas_cumprod, t, x_start.shape) * x_start
               + self._extract(self.sqrt_one_minus_alphas_cumprod, t, x_start.shape) * noise)
        out = model(x_t)
        return {"loss": ((out - noise) ** 2).mean(dim=(1, 2, 3))}

device = th.device("cuda:0")
model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.SiLU(), nn.Conv2d(16, 3, 3, padding=1)).to(device)
diffusion = GaussianDiffusion()
schedule_sampler = UniformSampler(50)
batch = th.randn(4, 3, 8, 8, device=device)
t, weights = schedule_sampler.sample(batch.shape[0])
t.to(batch.device)
weights.to(batch.device)
'''
CELL = '''
losses = diffusion.training_losses(model, batch, t)
loss = (losses["loss"] * weights).mean()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["t", "weights"]
FIX = "namespace"
REFERENCE_FIX = '''
t = t.to(batch.device)
weights = weights.to(batch.device)
'''
REFERENCE_EDIT = None
CLEAN = False
