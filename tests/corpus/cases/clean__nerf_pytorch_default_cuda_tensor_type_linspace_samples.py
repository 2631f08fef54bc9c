"""Look-alike: nerf-pytorch builds its sample depths and noise with no device, under a CUDA default tensor type.

Source: https://github.com/yenchenlin/nerf-pytorch/blob/master/run_nerf.py
`render_rays` makes `t_vals = torch.linspace(0., 1., steps=N_samples)` and `torch.rand(z_vals.shape)`,
and `raw2outputs` appends a `1e10` distance, all without `device=`: the factory-without-device
pattern that breaks so many GPU models. Here it is right: run_nerf.py calls
`torch.set_default_tensor_type('torch.cuda.FloatTensor')` before training, so every one of them is
created on the GPU with the rays and the MLP. Stand-in: `torch.set_default_device` for the default
tensor type (set after the MLP is built, which `create_nerf` moves with `.to(device)` anyway), a two-layer NeRF MLP, `render_rays`/`raw2outputs` reduced (no hierarchical sampling,
`unsqueeze`/`narrow` for the `[..., None]` indexing).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class NeRF(nn.Module):
    def __init__(self, D=2, W=64, input_ch=3):
        super().__init__()
        self.pts_linears = nn.Sequential(nn.Linear(input_ch, W), nn.ReLU(), nn.Linear(W, W), nn.ReLU())
        self.output_linear = nn.Linear(W, 4)

    def forward(self, x):
        return self.output_linear(self.pts_linears(x))

def raw2outputs(raw, z_vals, rays_d, raw_noise_std=0, white_bkgd=False):
    raw2alpha = lambda raw, dists, act_fn=F.relu: 1. - torch.exp(-act_fn(raw) * dists)
    dists = z_vals.narrow(-1, 1, z_vals.shape[-1] - 1) - z_vals.narrow(-1, 0, z_vals.shape[-1] - 1)
    dists = torch.cat([dists, torch.tensor([1e10]).expand(dists.narrow(-1, 0, 1).shape)], -1)
    dists = dists * torch.norm(rays_d.unsqueeze(-2), dim=-1)
    rgb = torch.sigmoid(raw.narrow(-1, 0, 3))
    noise = 0.
    if raw_noise_std > 0.:
        noise = torch.randn(raw.narrow(-1, 3, 1).squeeze(-1).shape) * raw_noise_std
    alpha = raw2alpha(raw.narrow(-1, 3, 1).squeeze(-1) + noise, dists)
    trans = torch.cumprod(torch.cat([torch.ones((alpha.shape[0], 1)), 1. - alpha + 1e-10], -1), -1)
    weights = alpha * trans.narrow(-1, 0, alpha.shape[-1])
    rgb_map = torch.sum(weights.unsqueeze(-1) * rgb, -2)
    depth_map = torch.sum(weights * z_vals, -1)
    acc_map = torch.sum(weights, -1)
    if white_bkgd:
        rgb_map = rgb_map + (1. - acc_map.unsqueeze(-1))
    return rgb_map, depth_map, acc_map, weights

def render_rays(ray_batch, network_fn, N_samples, perturb=1., raw_noise_std=1., white_bkgd=True):
    N_rays = ray_batch.shape[0]
    rays_o, rays_d = ray_batch.narrow(1, 0, 3), ray_batch.narrow(1, 3, 3)
    bounds = torch.reshape(ray_batch.narrow(-1, 6, 2), [-1, 1, 2])
    near, far = bounds.select(-1, 0), bounds.select(-1, 1)
    t_vals = torch.linspace(0., 1., steps=N_samples)
    z_vals = near * (1. - t_vals) + far * (t_vals)
    z_vals = z_vals.expand([N_rays, N_samples])
    if perturb > 0.:
        mids = .5 * (z_vals.narrow(-1, 1, N_samples - 1) + z_vals.narrow(-1, 0, N_samples - 1))
        upper = torch.cat([mids, z_vals.narrow(-1, N_samples - 1, 1)], -1)
        lower = torch.cat([z_vals.narrow(-1, 0, 1), mids], -1)
        t_rand = torch.rand(z_vals.shape)
        z_vals = lower + (upper - lower) * t_rand
    pts = rays_o.unsqueeze(-2) + rays_d.unsqueeze(-2) * z_vals.unsqueeze(-1)
    raw = network_fn(pts)
    return raw2outputs(raw, z_vals, rays_d, raw_noise_std, white_bkgd)

device = torch.device("cuda:0")
model = NeRF().to(device)                                  # create_nerf: NeRF(...).to(device)
torch.set_default_device("cuda:0")     # run_nerf.py: torch.set_default_tensor_type('torch.cuda.FloatTensor')
N_rand, near, far = 256, 2., 6.
rays_o = torch.zeros(N_rand, 3) + torch.tensor([0., 0., 4.])
rays_d = F.normalize(torch.randn(N_rand, 3), dim=-1)
batch_rays = torch.cat([rays_o, rays_d, near * torch.ones(N_rand, 1), far * torch.ones(N_rand, 1)], -1)
'''
CELL = '''
with torch.no_grad():
    rgb, depth, acc, weights = render_rays(batch_rays, model, N_samples=64)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
