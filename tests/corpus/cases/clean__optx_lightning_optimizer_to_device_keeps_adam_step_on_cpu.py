"""Look-alike: Lightning's `_optimizer_to_device` moves restored Adam moments to the GPU but leaves `step` on the CPU.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/19955
Resuming moved every optimizer-state tensor to the GPU, including `step`, which made Adam slower;
the reporter points out that Adam assumes `step` is a CPU tensor, and the helper was changed to
skip `step`. After the resume the moments are on cuda:0 with the parameters and the scalar `step`
stays on the CPU, as `torch.optim.Adam` itself creates it. Stand-in: the checkpoint loaded with
`map_location="cpu"` and the helper reduced to its loop.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def _optimizer_to_device(optimizer, device):
    for p, v in optimizer.state.items():
        if not isinstance(v, dict):
            continue
        for key, val in v.items():
            if key != "step" and torch.is_tensor(val):
                v[key] = val.to(device)

# checkpoint of the earlier run, read with map_location="cpu"
_m = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
_o = torch.optim.Adam(_m.parameters(), lr=1e-3)
for _p in _m.parameters():
    _p.grad = torch.ones_like(_p)
_o.step()
ckpt = {"state_dict": _m.state_dict(), "optimizer_states": [_o.state_dict()]}

device = torch.device("cuda:0")
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 1))
model.load_state_dict(ckpt["state_dict"])
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
optimizer.load_state_dict(ckpt["optimizer_states"][0])
model.to(device)
_optimizer_to_device(optimizer, device)
for p in model.parameters():      # stand-in for loss.backward()
    p.grad = torch.ones_like(p)
'''
CELL = '''
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
