"""AdamW state rebuilt by hand with an integer `step` tensor: the foreach path refuses it.

Source: https://github.com/pytorch/pytorch/issues/127197
"Tensors of the same index must be on the same device and the same dtype except `step` tensors that
can be CPU and float32 notwithstanding": the reporter's own code manipulated `optimizer.state`
directly (like insightface's partial_fc, which swaps per-class rows in and out of the optimizer) and
stored `step` as an integer tensor. The maintainer explains that step is now a float32 scalar
tensor and suggests making it a float. Stand-in: a classifier head whose optimizer state is reset
by a user helper; on the reporter's GPU AdamW defaulted to the foreach implementation, which
`foreach=True` selects here on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

device = torch.device("cpu")
backbone = nn.Sequential(nn.Linear(64, 128), nn.ReLU()).to(device)
head = nn.Linear(128, 1000, bias=False).to(device)
optimizer = torch.optim.AdamW(list(backbone.parameters()) + list(head.parameters()), lr=1e-3, foreach=True)

def reset_head_state(optimizer, head):
    # partial-fc style: restart the moments of the class weights that were swapped in
    for p in head.parameters():
        optimizer.state[p] = {
            "step": torch.tensor(0),
            "exp_avg": torch.zeros_like(p),
            "exp_avg_sq": torch.zeros_like(p),
        }

reset_head_state(optimizer, head)
for p in list(backbone.parameters()) + list(head.parameters()):   # stand-in for loss.backward()
    p.grad = torch.ones_like(p)
'''
CELL = '''
optimizer.step()
'''
EXPECT_ERROR = "Tensors of the same index must be on the same device and the same dtype"
CULPRITS = ["optimizer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('"step": torch.tensor(0),', '"step": torch.tensor(0.0),')
CLEAN = False
