"""Look-alike: a packed batch on the accelerator whose `batch_sizes` stay on the CPU, by design.

Source: https://github.com/pytorch/pytorch/issues/7466
A user moved a PackedSequence to CUDA and found its lengths still on the CPU; the maintainer:
"It's a feature. Lengths are used in various conditionals and storing them on CUDA would impose
unnecessary overheads." `PackedSequence.to()` keeps `batch_sizes` on the CPU, and building one
with them elsewhere raises "batch_sizes should always be on CPU". The packed batch, bound in the
notebook, runs through the LSTM: nothing may be reported. Simulated with meta as the accelerator.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence

device = "meta"
lstm = nn.LSTM(8, 16).to(device)
padded = torch.randn(7, 3, 8)
lengths = torch.tensor([7, 5, 2])
packed = pack_padded_sequence(padded, lengths).to(device)
out, _ = lstm(packed)  # an earlier cell ran the model on it
'''
CELL = '''
out, (h, c) = lstm(packed)
last = h[-1]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
