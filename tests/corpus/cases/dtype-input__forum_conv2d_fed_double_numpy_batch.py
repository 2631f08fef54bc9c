"""A Conv2d text-CNN layer fed a DoubleTensor built from np.random.uniform.

Source: https://github.com/pytorch/pytorch/issues/2552
The user built `a = th.DoubleTensor(np.random.uniform(size=(502,1,64,100)))`, wrapped it as
`c = th.autograd.Variable(a).double()` and called `conv1 = th.nn.Conv2d(in_channels=1,
out_channels=123, kernel_size=(2,100), stride=(1,1))` on it, which failed with "expected Double
tensor (got Float tensor)". The maintainer: to use double inputs the module needs `.double()`; the
user fixed it with `c = Variable(a).float()`. Sizes reduced.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch as th

a = th.DoubleTensor(np.random.uniform(size=(16, 1, 64, 100)))
c = th.autograd.Variable(a).double()
conv1 = th.nn.Conv2d(in_channels=1,
                     out_channels=123,
                     kernel_size=(2, 100),
                     stride=(1, 1))
'''
CELL = '''
b = conv1(c)
'''
EXPECT_ERROR = ("Input type (double) and bias type (float) should be the same",
                "expected scalar type Double but found Float",
                "should be the same")
CULPRITS = ["c"]
FIX = "namespace"
REFERENCE_FIX = '''
c = th.autograd.Variable(a).float()
'''
REFERENCE_EDIT = None
CLEAN = False
