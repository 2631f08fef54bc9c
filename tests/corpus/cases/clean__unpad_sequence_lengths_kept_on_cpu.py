"""Look-alike: padded encoder outputs on the accelerator, their lengths kept on the CPU for `unpad_sequence`.

Source: https://github.com/pytorch/pytorch/pull/98042
With PyTorch 2.0's `unpad_sequence`, which compares a CPU `arange` with each length, CPU lengths are
the working layout (as for `pack_padded_sequence`, pytorch issue 43227): the masks are CPU booleans
that index the accelerator rows. Two devices on purpose; nothing to report. Simulated with meta as
the accelerator.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch

def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """torch.nn.utils.rnn.unpad_sequence as shipped in PyTorch 2.0."""
    unpadded_sequences = []
    if not batch_first:
        padded_sequences.transpose_(0, 1)
    max_length = padded_sequences.shape[1]
    idx = torch.arange(max_length)
    for seq, length in zip(padded_sequences, lengths):
        mask = idx < length
        unpadded_sequences.append(seq[mask])
    return unpadded_sequences

device = torch.device("meta")
padded = torch.randn(3, 5, 4).to(device)
lengths = torch.tensor([5, 3, 2])
'''
CELL = '''
per_item = unpad_sequence(padded, lengths, batch_first=True)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
