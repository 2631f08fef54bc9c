"""A module keeps a Python list of its registered buffers; after `.cuda()` the list still holds the CPU tensors.

Source: https://github.com/pytorch/pytorch/issues/29807
"list of registered buffers does not move to cuda": MyModule registers `param_0..param_3` with
`register_buffer` and also appends `getattr(self, 'param_{i}')` to `self.params`. After `a.cuda()`,
`a.state_dict()` shows CUDA buffers but `a.params` still prints CPU tensors: `Module._apply`
replaces the buffers, and the plain list keeps the old objects (as the maintainer explained).
Stand-in: the user's module with a forward that uses `self.params`, as a model would;
`.cuda()` is written `.to("cuda:0")`.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

class MyModule(nn.Module):
    def __init__(self):
        super(MyModule, self).__init__()
        params = [torch.rand(1, 3) for i in range(4)]
        self.params = []
        for i, param in enumerate(params):
            self.register_buffer('param_{}'.format(i), param)
            self.params.append(getattr(self, 'param_{}'.format(i)))
        self.linear = nn.Linear(3, 3)

    def forward(self, x):
        for p in self.params:
            x = self.linear(x * p)
        return x

a = MyModule()
a.to("cuda:0")                     # a.cuda()
x = torch.randn(5, 3).to("cuda:0")
'''
CELL = '''
out = a(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["a.params"]
FIX = "namespace"
REFERENCE_FIX = '''
a.params = [getattr(a, 'param_{}'.format(i)) for i in range(4)]
'''
REFERENCE_EDIT = None
CLEAN = False
