"""Look-alike: fairseq's speech-to-text Berard encoder on the GPU packs its sequences with CPU `src_lengths`.

Source: https://github.com/facebookresearch/fairseq/pull/3557
The PR makes the Berard encoder call `pack_padded_sequence(x, input_lengths.cpu(), ...)` because
`lengths` must be a CPU tensor even when the LSTM and features are on the GPU (pytorch #43227). The
collater's CPU lengths beside CUDA features and weights are exactly what the op wants: no finding.
Stand-in: the Berard encoder's input projection and BLSTM; "meta" plays the GPU and the lengths
stay as the collater made them (a meta tensor has no data to copy back).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class BerardEncoder(nn.Module):
    def __init__(self, input_feat_per_channel=40, lstm_size=64, num_lstm_layers=2):
        super().__init__()
        self.input_layers = nn.Sequential(nn.Linear(input_feat_per_channel, 128), nn.Tanh())
        self.lstm = nn.LSTM(128, lstm_size, num_lstm_layers, bidirectional=True)

    def forward(self, src_tokens, src_lengths):
        bsz, max_seq_len, _ = src_tokens.size()
        x = self.input_layers(src_tokens).transpose(0, 1)
        packed_x = nn.utils.rnn.pack_padded_sequence(x, src_lengths.cpu())
        packed_outs, _ = self.lstm(packed_x)
        x, output_lengths = nn.utils.rnn.pad_packed_sequence(packed_outs)
        return {"encoder_out": x, "encoder_padding_mask": None}

device = torch.device("meta")
encoder = BerardEncoder().to(device)
sample = {"net_input": {"src_tokens": torch.randn(3, 120, 40), "src_lengths": torch.tensor([120, 97, 64])}}
src_tokens = sample["net_input"]["src_tokens"].to(device)
src_lengths = sample["net_input"]["src_lengths"]          # collater's lengths, sorted, on the CPU
'''
CELL = '''
encoder_out = encoder(src_tokens, src_lengths)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
