"""A network that builds a NumPy matrix inside `forward`: `torch.from_numpy` keeps it float64.

Source: https://github.com/pytorch/pytorch/issues/817
"Error when using numpy arrays created inside the forward function": `A = np.random.rand(60, num_p);
A = torch.from_numpy(A)` fed to `self.se0 = nn.Linear(num_p, rank_el_se)` failed, while
`torch.rand(60, num_p)` worked ("if instead I use torch.random, then it works"). NumPy's default is
float64; the Linear weights are float32. The fix is a `.float()` on the array's tensor.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

num_p, num_s, num_outputs = 30, 60, 10
num_hl_se, rank_el_se, rank_ss, num_hl_class = 10, 10, 10, 10

class Net(nn.Module):
    def __init__(self, num_p, rank_el_se, num_hl_se, rank_ss, num_hl_class, num_outputs):
        super().__init__()
        self.se0 = nn.Linear(num_p, rank_el_se)
        self.se1 = nn.Linear(rank_el_se, num_hl_se)
        self.se2 = nn.Linear(num_hl_se, rank_ss)
        self.cl1 = nn.Linear(rank_ss, num_hl_class)
        self.cl2 = nn.Linear(num_hl_class, num_outputs)

    def forward(self, x):
        A = np.random.rand(60, num_p)
        A = torch.from_numpy(A)
        o = self.se0(A)
        o = torch.sigmoid(self.se1(o))
        o = torch.sigmoid(self.se2(o))
        o = o.mul(x)
        x = torch.sigmoid(self.cl1(o))
        return torch.sigmoid(self.cl2(x))

s_cl = Net(num_p, rank_el_se, num_hl_se, rank_ss, num_hl_class, num_outputs)
x = torch.rand(num_s, rank_ss)
'''
CELL = '''
out = s_cl(x)
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["s_cl"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("A = torch.from_numpy(A)", "A = torch.from_numpy(A).float()")
CLEAN = False
