"""Optimizer built before `model.to(device)` on a device where `to()` replaces the parameters.

Source: https://github.com/pytorch/xla/issues/1623
Where `Module.to()` cannot change a parameter in place (XLA then; cpu -> meta here, without
`torch.__future__.set_swap_module_params_on_conversion(True)`), it creates new Parameter objects
and an optimizer built earlier keeps the old ones. Moving its state to the device too, as advised
in https://github.com/pytorch/pytorch/pull/3463 (where the maintainer explains the stale
parameters), gives a step that mixes the old CPU parameters with the moved state.
"""

SIM = "meta"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn

model = nn.Sequential(nn.Linear(6, 12), nn.ReLU(), nn.Linear(12, 2))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss = model(torch.randn(4, 6)).pow(2).mean()
loss.backward()
optimizer.step()

device = torch.device("meta")
model.to(device)
for state in optimizer.state.values():
    for k, v in state.items():
        if torch.is_tensor(v) and k != "step":
            state[k] = v.to(device)
'''
CELL = '''
optimizer.step()
'''
EXPECT_ERROR = "is not on the expected device"
CULPRITS = ["optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
import collections
old = optimizer.param_groups[0]["params"]
new = list(model.parameters())
optimizer.param_groups[0]["params"] = new
optimizer.state = collections.defaultdict(
    dict, {n: optimizer.state[o] for o, n in zip(old, new) if o in optimizer.state})
'''
REFERENCE_EDIT = None
CLEAN = False
