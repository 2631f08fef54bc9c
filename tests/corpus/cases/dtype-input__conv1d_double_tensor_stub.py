"""Conv1d fed a DoubleTensor: the layer's weights and bias are float32.

Source: https://github.com/pytorch/pytorch/issues/1498
"Conv1d only accepts FloatTensor": `x_stub = Variable(torch.DoubleTensor(100, 15, 12).normal_(0, 1))`,
`conv_1 = nn.Conv1d(15, 15, 3)`, `y = conv_1(x_stub)` errors out. Modules are created in the default
dtype (float32); a float64 input must be cast (`x_stub.float()`), or the module converted with
`.double()`. The user's stub is the odd one out.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn

x_stub = torch.DoubleTensor(100, 15, 12).normal_(0, 1)
conv_1 = nn.Conv1d(15, 15, 3)
'''
CELL = '''
y = conv_1(x_stub)
'''
EXPECT_ERROR = ("Input type (double) and bias type (float) should be the same",
                "expected scalar type Double but found Float")
CULPRITS = ["x_stub"]
FIX = "namespace"
REFERENCE_FIX = '''
x_stub = x_stub.float()
'''
REFERENCE_EDIT = None
CLEAN = False
