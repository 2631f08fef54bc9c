"""MADDPG with discrete actions on the GPU: the Gumbel noise is made with `type(logits.data)`, a CPU tensor.

Source: https://github.com/shariqiqbal2810/maddpg-pytorch/issues/28
With `--discrete_action` and `USE_CUDA = True`, `maddpg.update` failed in
`y = logits + sample_gumbel(logits.shape, tens_type=type(logits.data))` with "expected device
cuda:0 but got device cpu". The maintainer: "make sure that the sampled variable is on the same
device as the logits ... infer the device from the logits variable". (`type(logits.data)` is
plain `torch.Tensor` today, which allocates on the CPU.) Stand-in: utils/misc.py's functions,
with that allocation written as `torch.empty(*shape)`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

def sample_gumbel(shape, eps=1e-20):
    U = torch.empty(*shape).uniform_()      # tens_type(*shape).uniform_(), tens_type=type(logits.data)
    return -torch.log(-torch.log(U + eps) + eps)

def gumbel_softmax_sample(logits, temperature):
    y = logits + sample_gumbel(logits.shape)
    return F.softmax(y / temperature, dim=1)

def gumbel_softmax(logits, temperature=1.0, hard=False):
    y = gumbel_softmax_sample(logits, temperature)
    if hard:
        y_hard = F.one_hot(y.argmax(dim=1), y.shape[1]).to(y.dtype)
        y = (y_hard - y).detach() + y
    return y

device = torch.device("cuda:0")
policy = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 5)).to(device)
obs = torch.randn(32, 16).to(device)
'''
CELL = '''
curr_pol_out = policy(obs)
curr_pol_vf_in = gumbel_softmax(curr_pol_out, hard=True)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["gumbel_softmax"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("y = logits + sample_gumbel(logits.shape)",
                  "y = logits + sample_gumbel(logits.shape).to(logits.device)")
CLEAN = False
