"""SAM optimizer on a model split over two GPUs: the gradient norm stacks per-layer norms from cuda:0 and cuda:1.

Source: https://github.com/davda54/sam/pull/5
"Support model parallel": "when the tensor of the group inside the optimizer is not on the same
device (such as model parallel, etc.), the error will be reported. `RuntimeError: All input tensors
must be on the same device. Received cuda:0 and cuda:1`". `SAM._grad_norm` did
`torch.stack([p.grad.norm(p=2) for ...])` over all parameters; the merged fix moves each norm to a
`shared_device` (the first parameter's). Stand-in: SAM's first step, gradients set by hand.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class SAM(torch.optim.Optimizer):
    def __init__(self, params, base_optimizer, rho=0.05, **kwargs):
        defaults = dict(rho=rho, **kwargs)
        super().__init__(params, defaults)
        self.base_optimizer = base_optimizer(self.param_groups, **kwargs)
        self.param_groups = self.base_optimizer.param_groups

    @torch.no_grad()
    def first_step(self, zero_grad=False):
        grad_norm = self._grad_norm()
        for group in self.param_groups:
            scale = group["rho"] / (grad_norm + 1e-12)
            for p in group["params"]:
                if p.grad is None:
                    continue
                e_w = p.grad * scale.to(p)
                p.add_(e_w)
                self.state[p]["e_w"] = e_w

    def _grad_norm(self):
        norm = torch.norm(
            torch.stack([
                p.grad.norm(p=2)
                for group in self.param_groups for p in group["params"]
                if p.grad is not None
            ]),
            p=2,
        )
        return norm

class TwoGPUNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.seq1 = nn.Sequential(nn.Linear(32, 64), nn.ReLU()).to("cuda:0")
        self.seq2 = nn.Linear(64, 10).to("cuda:1")

    def forward(self, x):
        return self.seq2(self.seq1(x.to("cuda:0")).to("cuda:1"))

model = TwoGPUNet()
optimizer = SAM(model.parameters(), torch.optim.SGD, lr=0.1, momentum=0.9)
for p in model.parameters():          # what loss.backward() leaves behind
    p.grad = torch.ones_like(p)
'''
CELL = '''
optimizer.first_step(zero_grad=True)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("                p.grad.norm(p=2)\n",
                  "                p.grad.norm(p=2).to(self.param_groups[0][\"params\"][0].device)\n")
CLEAN = False
