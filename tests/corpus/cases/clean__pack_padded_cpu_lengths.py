"""Look-alike: the model and the padded batch are on the accelerator, the `lengths` stay on the CPU.

Source: https://github.com/pytorch/pytorch/issues/43227
The maintainers' answer to "'lengths' argument should be a 1D CPU int64 tensor": "You can still
use CUDA but the second argument, 'lengths', must be a CPU tensor if it is a tensor." This is
that correct layout: two devices on purpose, nothing to report. Simulated with meta as the
accelerator.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence

class Encoder(nn.Module):
    def __init__(self, vocab=40, emb=8, hidden=16):
        super().__init__()
        self.embedding = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hidden, batch_first=True)

    def forward(self, tokens, lengths):
        packed = pack_padded_sequence(self.embedding(tokens), lengths, batch_first=True)
        out, _ = self.lstm(packed)
        return out

device = "meta"
encoder = Encoder().to(device)
tokens = torch.randint(1, 40, (3, 7)).to(device)
lengths = torch.tensor([7, 5, 2])
'''
CELL = '''
out = encoder(tokens, lengths)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
