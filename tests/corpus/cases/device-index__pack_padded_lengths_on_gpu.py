"""pack_padded_sequence given a `lengths` tensor that was moved to the GPU with the rest of the batch.

Source: https://github.com/pytorch/pytorch/issues/43227
Since PyTorch 1.7, "'lengths' argument should be a 1D CPU int64 tensor, but got 1D cuda:0 Long
tensor": the user's code moved every tensor of the batch, the lengths too, to the model's device
(fairseq's berard model hit the same, fixed in facebookresearch/fairseq#3557). PyTorch requires
the lengths on the CPU (or a list) even when the data is on the GPU. Simulated with meta as the
accelerator (the error names "meta"); a meta tensor cannot be copied back, so the fix is to not
move the lengths.
"""

SIM = "meta"
FAMILY = "device-index"
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

def move_to(sample, device):
    return {k: v.to(device) for k, v in sample.items()}

device = "meta"
encoder = Encoder().to(device)
sample = {"tokens": torch.randint(1, 40, (3, 7)), "lengths": torch.tensor([7, 5, 2])}
batch = move_to(sample, device)
'''
CELL = '''
out = encoder(batch["tokens"], batch["lengths"])
'''
EXPECT_ERROR = "'lengths' argument should be a 1D CPU int64 tensor"
CULPRITS = ["batch['lengths']"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "{k: v.to(device) for k, v in sample.items()}",
    '{k: (v if k == "lengths" else v.to(device)) for k, v in sample.items()}',
)
CLEAN = False
