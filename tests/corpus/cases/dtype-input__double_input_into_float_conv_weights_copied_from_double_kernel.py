"""A Conv2d whose weight was filled from a float64 kernel, fed a float64 input: the layer is still float32.

Source: https://github.com/pytorch/pytorch/issues/2138
"RuntimeError: expected Double tensor (got Float tensor)": the user built
`kernel = torch.from_numpy(np.random.random_sample((1, 3))).double()` and
`input_ = torch.from_numpy(...).double()`, copied the kernel into
`model[0].weight.data.copy_(kernel)` and ran `model(A)` with `A` the double input — "But the input
is actually DoubleTensor". `copy_` casts into the float32 parameter, so the module stays float32
and the double input does not match it; the input (or the model, `.double()`) must be converted.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

kernel = torch.from_numpy(np.random.random_sample((1, 3))).double()
input_ = torch.from_numpy(np.random.random_sample((1, 1, 1, 6))).double()

model = nn.Sequential(nn.Conv2d(1, 1, (1, 3), stride=1, padding=0, bias=False))
model[0].weight.data.copy_(kernel.view(1, 1, 1, 3))
A = input_                      # Variable(input_) in PyTorch 0.2
'''
CELL = '''
out = model(A)
print(out.data)
'''
EXPECT_ERROR = "expected scalar type Double but found Float"
CULPRITS = ["A"]
FIX = "namespace"
REFERENCE_FIX = '''
A = A.float()
'''
REFERENCE_EDIT = None
CLEAN = False
