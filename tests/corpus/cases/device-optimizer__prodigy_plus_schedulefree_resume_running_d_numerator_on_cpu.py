"""sd-scripts LoRA with ProdigyPlusScheduleFree, resumed from a saved state: a tensor kept in the param group comes back on the CPU.

Source: https://github.com/LoganBooker/prodigy-plus-schedule-free/issues/11
"If I resume training from any state I have an error 'RuntimeError: Expected all tensors to be on
the same device, but found at least two devices, cuda:0 and cpu!' on the first new step", raised in
`prodigyplus/core_optimiser.py` `step`. The optimiser keeps `running_d_numerator` /
`running_d_denom` as device tensors inside `param_groups` ("Use tensors to keep everything on device
during parameter loop"); `Optimizer.load_state_dict` moves per-parameter state to the parameters'
device but copies param-group values as saved, and accelerate's `load_state` reads the state on the
CPU. (The stand-in keeps them as 1-element tensors instead of 0-dim ones. The fix re-homes them in `get_running_values_for_group`.) Stand-in: the optimiser's
d-estimate accumulation, a LoRA network on cuda:0 and the resume path; gradients are stand-ins.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn

class ProdigyPlusScheduleFree(torch.optim.Optimizer):
    def __init__(self, params, lr=1.0, d0=1e-6, beta3=0.99):
        super().__init__(params, dict(lr=lr, d0=d0, d=d0, beta3=beta3, k=1))
        for group in self.param_groups[:1]:
            p = group["params"][0]
            # Use tensors to keep everything on device during parameter loop.
            group["running_d_numerator"] = torch.zeros(1, dtype=torch.float32, device=p.device)
            group["running_d_denom"] = torch.zeros(1, dtype=torch.float32, device=p.device)

    @torch.no_grad()
    def step(self):
        group = self.param_groups[0]
        d, d0 = group["d"], group["d0"]
        for p in group["params"]:
            state = self.state[p]
            if len(state) == 0:
                state["p0"] = p.detach().flatten().clone()      # (sliced every 11th in the original)
                state["s"] = torch.zeros_like(state["p0"])
            sliced_grad = p.grad.flatten()
            sliced_data = p.flatten()
            group["running_d_numerator"].add_(torch.dot(sliced_grad, state["p0"] - sliced_data), alpha=(d / d0) * d)
            state["s"].mul_(group["beta3"]).add_(sliced_grad, alpha=(d / d0) * d)
            group["running_d_denom"].add_(state["s"].abs().sum())
            p.add_(p.grad, alpha=-group["lr"] * d)
        group["k"] += 1

class LoRANetwork(nn.Module):
    def __init__(self, dim=64, rank=4):
        super().__init__()
        self.lora_down = nn.Linear(dim, rank, bias=False)
        self.lora_up = nn.Linear(rank, dim, bias=False)

network = LoRANetwork()
# the run that wrote the saved state: trained on the GPU, state written to disk
_net = LoRANetwork().to("cuda:0")
_opt = ProdigyPlusScheduleFree(_net.parameters())
for _p in _net.parameters():
    _p.grad = torch.randn_like(_p)
_opt.step()
_sd = _opt.state_dict()
saved_state = {"state": {k: {n: t.to("cpu") for n, t in v.items()} for k, v in _sd["state"].items()},
               "param_groups": [{k: (v.to("cpu") if torch.is_tensor(v) else v) for k, v in g.items()}
                                for g in _sd["param_groups"]]}      # torch.load(..., map_location="cpu")

# resume: network and optimiser built, accelerator.prepare(...) moves them, load_state restores
network.to("cuda:0")
optimizer = ProdigyPlusScheduleFree(network.parameters())
optimizer.load_state_dict(saved_state)
# stand-in for accelerator.backward(loss)
for p in network.parameters():
    p.grad = torch.randn_like(p)
'''
CELL = '''
optimizer.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
for group in optimizer.param_groups:
    for key in ("running_d_numerator", "running_d_denom"):
        if key in group:
            group[key] = group[key].to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
