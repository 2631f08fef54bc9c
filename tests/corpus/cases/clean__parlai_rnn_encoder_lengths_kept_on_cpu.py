"""ParlAI RNNEncoder after the fix: the pack_padded_sequence lengths are kept on the CPU.

Source: https://github.com/facebookresearch/ParlAI/pull/2910
"Ensure lengths for pack_padded_sequence in RNNEncoder are set to CPU": `pack_padded_sequence`
requires the lengths on the CPU even when the embedded batch is on the GPU; the patched encoder
computes `x_lens` on the CPU while `xs` and the RNN live on the device. Look-alike: a device batch,
a device GRU and a CPU int64 lengths tensor in the same call. Simulated with meta as the
accelerator; the encoder is a cut-down stand-in of ParlAI's seq2seq RNNEncoder.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

class RNNEncoder(nn.Module):
    def __init__(self, num_features=100, embeddingsize=16, hiddensize=32, padding_idx=0):
        super().__init__()
        self.lt = nn.Embedding(num_features, embeddingsize, padding_idx=padding_idx)
        self.rnn = nn.GRU(embeddingsize, hiddensize, batch_first=True)

    def forward(self, xs, x_lens):
        xes = self.lt(xs)
        packed = pack_padded_sequence(xes, x_lens, batch_first=True)   # batchify sorts by length
        encoder_output, hidden = self.rnn(packed)
        encoder_output, _ = pad_packed_sequence(encoder_output, batch_first=True,
                                                total_length=xs.size(1))
        return encoder_output, hidden

device = torch.device("meta")            # cuda in the report
encoder = RNNEncoder().to(device)
lengths = [7, 6, 5, 3]
xs = torch.randint(1, 100, (4, 7)).to(device)
x_lens = torch.tensor(lengths, dtype=torch.int64)      # stays on the CPU
'''
CELL = '''
encoder_output, hidden = encoder(xs, x_lens)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
