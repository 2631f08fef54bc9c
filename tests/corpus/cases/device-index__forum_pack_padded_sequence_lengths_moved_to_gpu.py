"""pack_padded_sequence called with `lengths` moved to the GPU along with the batch.

Source: https://github.com/pytorch/pytorch/issues/41582
The user's DummyModel packs `x` with `nn.utils.rnn.pack_padded_sequence(x, lengths,
batch_first=True, enforce_sorted=True)`; both `lengths = torch.tensor([5, 4, 2, 2, 1],
dtype=torch.int32).cuda()` and `x = torch.ones((N, T, F)).cuda()` were put on the GPU. "This ok:
scripted_model(x, lengths.cpu())"; with the CUDA `lengths` it raised. Since PyTorch 1.7 the
`lengths` tensor must be on the CPU (pytorch#43227), eager mode included. Stand-in: the model is
called eagerly (the report used torch.jit.script); the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "device-index"
SETUP = '''
import torch
from torch import nn

class DummyModel(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, lengths):
        return nn.utils.rnn.pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=True)

N, T, F = 5, 30, 50
lengths = torch.tensor([5, 4, 2, 2, 1], dtype=torch.int32).to("meta")   # .cuda()
x = torch.ones((N, T, F)).to("meta")                                     # .cuda()
model = DummyModel()
'''
CELL = '''
packed = model(x, lengths)
'''
EXPECT_ERROR = "'lengths' argument should be a 1D CPU int64 tensor"
CULPRITS = ["lengths"]
FIX = "namespace"
REFERENCE_FIX = '''
lengths = torch.tensor([5, 4, 2, 2, 1], dtype=torch.int32)   # lengths.cpu(): meta holds no values
'''
REFERENCE_EDIT = None
CLEAN = False
