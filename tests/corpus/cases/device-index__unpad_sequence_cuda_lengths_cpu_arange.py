"""`unpad_sequence` (PyTorch 2.0) with the lengths on the GPU: its position index is a CPU arange.

Source: https://github.com/pytorch/pytorch/pull/98042
"Fix device handling in `nn.utils.rnn.unpad_sequence`": "Without this change I get the following
error. line 444, in unpad_sequence: `mask = idx < length` RuntimeError: Expected all tensors to be on
the same device, but found at least two devices, cuda:0 and cpu!". The function built
`idx = torch.arange(max_length)` on the CPU and compared it with each element of `lengths`; with the
lengths on the accelerator that fails, with CPU lengths (as `pack_padded_sequence` wants) it works.
Stand-in: the 2.0 function, before the fix. Simulated with meta as the accelerator.
"""

SIM = "meta"
FAMILY = "device-index"
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
        unpacked_seq = seq[mask]
        unpadded_sequences.append(unpacked_seq)
    return unpadded_sequences

device = torch.device("meta")
seq_lens = [5, 3, 2]
padded = torch.randn(3, 5, 4).to(device)          # encoder output, batch first
lengths = torch.tensor(seq_lens, device=device)
'''
CELL = '''
per_item = unpad_sequence(padded, lengths, batch_first=True)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["lengths"]
FIX = "namespace"
REFERENCE_FIX = '''
lengths = torch.tensor(seq_lens)
'''
REFERENCE_EDIT = None
CLEAN = False
