"""Labels of the meta set left on the CPU, passed through a loss helper (`target.long()`).

Source: https://github.com/JieyuZ2/wrench/issues/4
`run_meta_weight_net.py` moved the network and the meta inputs to the GPU but not the meta
labels; the failure surfaces two frames down, in `F.cross_entropy(input, target.long(), ...)`
inside the library's `cross_entropy_with_probs` helper.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

def cross_entropy_with_probs(input, target, weight=None, reduction="mean"):
    # wrench/utils.py: hard labels go straight to F.cross_entropy
    return F.cross_entropy(input, target.long(), weight=weight, reduction=reduction)

device = torch.device("cuda:0")
meta_net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 3)).to(device)
meta_x = torch.randn(8, 16).to(device)
meta_target = torch.randint(0, 3, (8,))
'''
CELL = '''
outputs = meta_net(meta_x)
meta_loss = cross_entropy_with_probs(outputs, meta_target)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["meta_target"]
FIX = "namespace"
REFERENCE_FIX = '''
meta_target = meta_target.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
