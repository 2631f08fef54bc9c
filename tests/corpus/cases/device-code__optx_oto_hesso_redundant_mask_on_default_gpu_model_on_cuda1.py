"""Only-Train-Once HESSO on cuda:1: the optimizer's per-group `active_redundant_bool` mask is made with `.cuda()`, i.e. on cuda:0.

Source: https://github.com/tianyic/only_train_once_personal_footprint/pull/53
"I wanted to use OTO over a few cuda devices, which gave errors whenever using any cuda but the
default 'cuda:0'. The reason was this tensor in hesso.py:
group['active_redundant_bool'] = torch.zeros(group['num_groups'], dtype=torch.bool).cuda()";
the PR passes a device to HESSO instead. Stand-in: HESSO reduced to the group-norm bookkeeping of
its pruning step (one pruning group per output row); `.cuda()` is written `.to("cuda:0")`, the
device it means when no other is current, since fake cuda tensors need an explicit index.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class HESSO(torch.optim.Optimizer):
    def __init__(self, params, lr=0.1, target_group_sparsity=0.5):
        super().__init__(params, dict(lr=lr, target_group_sparsity=target_group_sparsity))
        for group in self.param_groups:
            group["num_groups"] = group["params"][0].shape[0]
            group["active_redundant_bool"] = torch.zeros(group["num_groups"], dtype=torch.bool).to("cuda:0")

    @torch.no_grad()
    def compute_group_norms(self, group):
        return torch.stack([p.reshape(p.shape[0], -1).norm(dim=1) for p in group["params"]]).sum(0)

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            norms = self.compute_group_norms(group)
            threshold = norms.mean() * group["target_group_sparsity"]
            group["active_redundant_bool"] = group["active_redundant_bool"] | (norms <= threshold)
            redundant = group["active_redundant_bool"]
            for p in group["params"]:
                p.add_(p.grad, alpha=-group["lr"])
                p.masked_fill_(redundant.view(-1, *([1] * (p.dim() - 1))), 0.0)

device = torch.device("cuda:1")
model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10)).to(device)
first = model[0]
optimizer = HESSO([{"params": [first.weight, first.bias]}], lr=0.1, target_group_sparsity=0.5)
for p in model.parameters():      # stand-in for loss.backward()
    p.grad = torch.ones_like(p)
'''
CELL = '''
optimizer.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    'torch.zeros(group["num_groups"], dtype=torch.bool).to("cuda:0")',
    'torch.zeros(group["num_groups"], dtype=torch.bool, device=group["params"][0].device)',
)
CLEAN = False
