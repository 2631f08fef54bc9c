"""nn.CrossEntropyLoss built with a CPU `weight` tensor, called on CUDA logits and targets.

Source: https://github.com/pytorch/pytorch/issues/3879
"When the weight Tensor argument in nn.Loss is NOT .cuda() when the Variables going into the
function are .cuda(), PyTorch will raise an uninformative error message." The maintainers' repro:
`x` and `t` are moved with `.cuda()`, `weight = torch.randn(2)` stays on the CPU and goes into
`m = nn.CrossEntropyLoss(weight=weight)`; calling `m(x, t)` fails. The class weight (a buffer of the
loss module) has to be on the logits' device. `.cuda()` is written `.to("cuda:0")`.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn

x = torch.randn(2, 2).to("cuda:0")            # .cuda()
t = torch.LongTensor([0, 1]).to("cuda:0")     # .cuda()
weight = torch.randn(2).abs()
m = nn.CrossEntropyLoss(weight=weight)
'''
CELL = '''
loss = m(x, t)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["m"]
FIX = "namespace"
REFERENCE_FIX = '''
m = m.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
