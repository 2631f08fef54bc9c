"""A hand-made 5x5 filter from np.random.rand (float64) passed to F.conv2d with a float32 batch.

Source: https://github.com/pytorch/pytorch/issues/1357
The user compared `nn.functional.conv2d(Variable(a.view(9,1,64,64)), Variable(weights))`, where
`weights = torch.from_numpy(np.random.rand(25).reshape(1,1,5,5))`, with an `nn.Conv2d` whose weight
was filled by `psi.weight.data.copy_(weights)`; the functional result was far off. As
szagoruyko answered, "np.random.rand generates double precision tensor by default, whereas torch
generates single precision": the filter is float64 while `a` is float32 (`copy_` casts, so the
module path was right). PyTorch now checks the types and raises instead.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.autograd import Variable

filter_size = 5
a = torch.randn(3, 3, 64, 64)
weights = np.random.rand(25).reshape(5, 5)
weights = torch.from_numpy(weights.reshape(1, 1, 5, 5))
psi = nn.Conv2d(1, 1, filter_size, bias=True)
psi.weight.data.copy_(weights)
psi.bias.data.fill_(0)
'''
CELL = '''
out1 = nn.functional.conv2d(Variable(a.view(9, 1, 64, 64)), Variable(weights))
out2 = psi(Variable(a.view(9, 1, 64, 64)))
print(out1.mean())
print(out2.mean())
'''
EXPECT_ERROR = ("Input type (torch.FloatTensor) and weight type (torch.DoubleTensor) should be the same",
                "expected scalar type Float but found Double",
                "should be the same")
CULPRITS = ["weights"]
FIX = "namespace"
REFERENCE_FIX = '''
weights = weights.float()
'''
REFERENCE_EDIT = None
CLEAN = False
