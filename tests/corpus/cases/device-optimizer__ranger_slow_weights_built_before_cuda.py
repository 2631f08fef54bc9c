"""Ranger optimizer created before the model is moved to the GPU: its lookahead slow weights stay on the CPU.

Source: https://github.com/lessw2020/Ranger-Deep-Learning-Optimizer/issues/1
"Not working using cuda": "Variables self.slow_weights are always on cpu." The reply: "Are you by
any chance creating your Ranger optimizer before moving your model to CUDA? ... a known error on
optimizers that initialize internal state based on the model parameters ... would be solved just by
instantiating your optimizer after you move your model to CUDA." Ranger clones every parameter into
`slow_weights` in `__init__`. Stand-in: Ranger reduced to its lookahead step (k=1); gradients set by hand.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn
from torch.optim.optimizer import Optimizer

class Ranger(Optimizer):
    def __init__(self, params, lr=1e-3, alpha=0.5, k=1):
        defaults = dict(lr=lr, alpha=alpha, k=k, step_counter=0)
        super().__init__(params, defaults)
        self.alpha, self.k = alpha, k
        self.slow_weights = [[p.clone().detach() for p in group["params"]]
                             for group in self.param_groups]
        for w in self.slow_weights:
            for p in w:
                p.requires_grad = False

    @torch.no_grad()
    def step(self, closure=None):
        for group, slow_weights in zip(self.param_groups, self.slow_weights):
            group["step_counter"] += 1
            for p in group["params"]:
                if p.grad is not None:
                    p.add_(p.grad, alpha=-group["lr"])      # the inner RAdam update, reduced
            if group["step_counter"] % self.k != 0:
                continue
            for p, q in zip(group["params"], slow_weights):
                q.add_(p.data - q.data, alpha=self.alpha)
                p.data = q.data.clone()

model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5))
optimizer = Ranger(model.parameters())
device = torch.device("cuda:0")
model.to(device)
for p in model.parameters():          # what loss.backward() leaves behind
    p.grad = torch.ones_like(p)
'''
CELL = '''
optimizer.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
optimizer = Ranger(model.parameters())
'''
REFERENCE_EDIT = None
CLEAN = False
