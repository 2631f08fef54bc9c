"""Coqui TTS Tacotron2 training on a GPU: the stopnet loss keeps `pos_weight` as a plain CPU tensor.

Source: https://github.com/coqui-ai/TTS/issues/1816
Training Tacotron2 failed in `binary_cross_entropy_with_logits` with "Expected all tensors to be on
the same device, but found at least two devices, cuda:0 and cpu!". Commenters traced it to
`BCELossMasked` in TTS/tts/layers/losses.py: `TacotronLoss` builds it with
`pos_weight=torch.tensor(stopnet_pos_weight)` and the module stores the tensor as a plain attribute,
so the trainer's `criterion.cuda()` leaves it on the CPU (one suggested patching
F.binary_cross_entropy_with_logits to call `pos_weight.cuda()`; TTS later registered it as a
buffer). Stand-in: BCELossMasked and the stopnet part of TacotronLoss, the weight kept as a
one-element tensor (current PyTorch would accept a 0-dim CPU tensor as a scalar); "meta" plays the
GPU.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn
from torch.nn import functional

def sequence_mask(sequence_length, max_len=None):
    if max_len is None:
        max_len = sequence_length.max()
    seq_range = torch.arange(max_len, dtype=sequence_length.dtype, device=sequence_length.device)
    return seq_range.unsqueeze(0) < sequence_length.unsqueeze(1)

class BCELossMasked(nn.Module):
    def __init__(self, pos_weight):
        super().__init__()
        self.pos_weight = pos_weight.reshape(1)

    def forward(self, x, target, length):
        target.requires_grad = False
        mask = sequence_mask(sequence_length=length, max_len=target.size(1)).float()
        x = x * mask
        target = target * mask
        num_items = mask.sum()
        loss = functional.binary_cross_entropy_with_logits(x, target, pos_weight=self.pos_weight, reduction="sum")
        return loss / num_items

class TacotronLoss(nn.Module):
    def __init__(self, stopnet_pos_weight=10.0):
        super().__init__()
        self.criterion = nn.L1Loss()
        self.criterion_st = BCELossMasked(pos_weight=torch.tensor(stopnet_pos_weight))

    def forward(self, decoder_output, mel_input, stopnet_output, stopnet_target, output_lens):
        decoder_loss = self.criterion(decoder_output, mel_input)
        stop_loss = self.criterion_st(stopnet_output, stopnet_target, output_lens)
        return {"loss": decoder_loss + stop_loss, "decoder_loss": decoder_loss, "stopnet_loss": stop_loss}

device = torch.device("meta")
decoder = nn.Linear(80, 81).to(device)          # Tacotron2 decoder + stopnet, reduced
criterion = TacotronLoss(stopnet_pos_weight=10.0)
criterion.to(device)                            # trainer: criterion.cuda()
mel_input = torch.randn(4, 50, 80).to(device)
stop_targets = torch.zeros(4, 50).to(device)
mel_lengths = torch.tensor([50, 44, 38, 30]).to(device)
'''
CELL = '''
out = decoder(mel_input)
decoder_output, stop_tokens = out[..., :80], out[..., 80]
loss_dict = criterion(decoder_output, mel_input, stop_tokens, stop_targets, mel_lengths)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device", "same device")
CULPRITS = ["criterion.criterion_st"]
FIX = "namespace"
REFERENCE_FIX = '''
criterion.criterion_st.pos_weight = criterion.criterion_st.pos_weight.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
