"""A GPU `nn.LSTM` layer called with a GPU input but a hidden state `[h, c]` kept on the CPU.

Source: https://github.com/pytorch/pytorch/issues/9534
"CPU hidden state tensor in GPU lstm layer causes CUDA corruption": `layer = nn.LSTM(10, 100,
batch_first=True)`, `layer.to('cuda')`, `i = torch.randn(1, 30, 10).to('cuda')`, and
`h = [torch.zeros(1, 1, 100).to('cuda'), ...]`: `layer(i, h)` works, but the same call with the
hidden list on the CPU (`[x.to('cpu') for x in h]`) failed (in 0.4 with a cuDNN error instead of a
device check; the maintainers added the check that now raises "Input and hidden tensors are not at
the same device"). The hidden list must be on the layer's device. The GPU is simulated by meta;
the CPU copy of `h` is kept as a name, `h_cpu`.
"""

SIM = "meta"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

layer = nn.LSTM(10, 100, batch_first=True)
layer.to('meta')                                   # layer.to('cuda')
i = torch.randn(1, 30, 10).to('meta')
h = [torch.zeros(1, 1, 100).to('meta'), torch.zeros(1, 1, 100).to('meta')]
out = layer(i, h)                                  # works fine
h_cpu = [torch.zeros(1, 1, 100), torch.zeros(1, 1, 100)]   # [x.to('cpu') for x in h]
'''
CELL = '''
out = layer(i, h_cpu)
'''
EXPECT_ERROR = "Input and hidden tensors are not at the same device"
CULPRITS = ["h_cpu"]
FIX = "namespace"
REFERENCE_FIX = '''
h_cpu = [x.to('meta') for x in h_cpu]
'''
REFERENCE_EDIT = None
CLEAN = False
