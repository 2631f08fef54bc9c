"""FishLeg: a gradient hook `grad * mask` whose mask was made on the CPU fails in `loss.backward()` once the model is on the GPU.

Source: https://github.com/mtkresearch/FishLeg/issues/16
`get_zero_grad_hook(mask)` returns `hook(grad): return grad * mask`, registered on a parameter to
keep part of it fixed (here the upper triangle of a lower-triangular factor). The mask is built on
the CPU (no device given) when the hook is registered; in the training loop on the GPU, `loss.backward()` calls the hook
with a GPU `grad` and the product mixes devices. The workaround in the thread moves the mask to
`grad`'s device inside the hook (written there as `mask.to(grad.get_device())` without assigning it;
the working form is `grad * mask.to(grad.device)`). Stand-ins: a small model with a lower-triangular
factor `L` in place of FishLeg's auxiliary parameters; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
from typing import Callable
import torch
import torch.nn as nn

torch.__future__.set_swap_module_params_on_conversion(True)
device = torch.device("meta")         # the GPU, simulated with meta

def get_zero_grad_hook(mask: torch.Tensor) -> Callable[[torch.Tensor], torch.Tensor]:
    def hook(grad: torch.Tensor) -> torch.Tensor:
        return grad * mask

    return hook

class TriangularLayer(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.L = nn.Parameter(torch.tril(torch.randn(n, n)) * 0.1)
        self.fc = nn.Linear(n, n)

    def forward(self, x):
        return self.fc(x @ self.L)

model = TriangularLayer(16).to(device)
mask = torch.tril(torch.ones(16, 16))
model.L.register_hook(get_zero_grad_hook(mask))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
x = torch.randn(32, 16).to(device)
y = torch.randn(32, 16).to(device)
'''
CELL = '''
optimizer.zero_grad()
loss = nn.functional.mse_loss(model(x), y)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["mask"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        return grad * mask\n", "        return grad * mask.to(grad.device)\n")
CLEAN = False
