"""RVC training resumed with the Prodigy optimizer: `d_numerator` lives in param_groups, so loading the checkpoint leaves it on the CPU.

Source: https://github.com/konstmish/prodigy/issues/1
Resuming RVC (Retrieval-based Voice Conversion) training that used Prodigy (pytorch_optimizer)
failed at `scaler.step(optim_d)` in `d_numerator.add_(torch.dot(grad.flatten(), (p0 - p).flatten()), ...)`
with "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and
cpu!". RVC's `load_checkpoint` reads the state dict with `map_location="cpu"`;
`Optimizer.load_state_dict` moves per-parameter *state* to each parameter's device but copies
param_groups as they are, and Prodigy keeps its running `d_numerator` tensor in the param group.
Stand-in: Prodigy's step (the d-estimate update that reads `.item()` left out) and RVC's
discriminator; fake mode has no autograd, so the backward is written as gradients set on the
parameters.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import math
import torch
from torch import nn

class Prodigy(torch.optim.Optimizer):
    def __init__(self, params, lr=1.0, betas=(0.9, 0.999), beta3=None, d0=1e-6, eps=1e-8):
        defaults = dict(lr=lr, betas=betas, beta3=beta3, d=d0, d0=d0, eps=eps)
        super().__init__(params, defaults)

    @torch.no_grad()
    def step(self, closure=None):
        group = self.param_groups[0]
        device = group["params"][0].device
        d_de_nom = torch.tensor([0.0], device=device)
        beta1, beta2 = group["betas"]
        beta3 = group["beta3"] if group["beta3"] is not None else math.sqrt(beta2)
        d, d0 = group["d"], group["d0"]
        d_lr = d * group["lr"]
        if "d_numerator" not in group:
            group["d_numerator"] = torch.tensor([0.0], device=device)
        d_numerator = group["d_numerator"]
        d_numerator.mul_(beta3)
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = p.grad
                state = self.state[p]
                if len(state) == 0:
                    state["s"] = torch.zeros_like(p)
                    state["p0"] = p.clone()
                    state["exp_avg"] = torch.zeros_like(p)
                    state["exp_avg_sq"] = torch.zeros_like(p)
                p0, exp_avg, exp_avg_sq = state["p0"], state["exp_avg"], state["exp_avg_sq"]
                d_numerator.add_(torch.dot(grad.flatten(), (p0 - p).flatten()), alpha=(d / d0) * d_lr)
                exp_avg.mul_(beta1).add_(grad, alpha=d * (1.0 - beta1))
                exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=d * d * (1.0 - beta2))
                state["s"].mul_(beta3).add_(grad, alpha=(d / d0) * d_lr)
                d_de_nom.add_(state["s"].abs().sum())
                denom = exp_avg_sq.sqrt().add_(d * group["eps"])
                p.addcdiv_(exp_avg, denom, value=-d_lr)

class MultiPeriodDiscriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.convs = nn.Sequential(nn.Conv1d(1, 16, 15, stride=4, padding=7), nn.LeakyReLU(0.1),
                                   nn.Conv1d(16, 1, 3, padding=1))

    def forward(self, y):
        return self.convs(y)

def set_grads(model):                     # loss_disc.backward() under the GradScaler
    for p in model.parameters():
        p.grad = torch.randn_like(p)

# first run (the checkpoint G_/D_*.pth was written from it)
net_d = MultiPeriodDiscriminator()
optim_d = Prodigy(net_d.parameters(), lr=1.0)
set_grads(net_d)
optim_d.step()
checkpoint = {"model": net_d.state_dict(), "optimizer": optim_d.state_dict()}   # torch.load(..., map_location="cpu")

# resumed run
device = torch.device("cuda:0")
net_d = MultiPeriodDiscriminator()
net_d.load_state_dict(checkpoint["model"])
net_d = net_d.to(device)
optim_d = Prodigy(net_d.parameters(), lr=1.0)
optim_d.load_state_dict(checkpoint["optimizer"])
y = torch.randn(4, 1, 8192, device=device)
'''
CELL = '''
y_d_hat = net_d(y)
set_grads(net_d)
optim_d.step()                              # scaler.step(optim_d)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optim_d"]
FIX = "namespace"
REFERENCE_FIX = '''
for g in optim_d.param_groups:
    if "d_numerator" in g:
        g["d_numerator"] = g["d_numerator"].to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
