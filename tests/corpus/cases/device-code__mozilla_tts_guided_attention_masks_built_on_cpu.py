"""Mozilla TTS fine-tuning with guided attention: GuidedAttentionLoss builds its soft diagonal masks on the CPU.

Source: https://github.com/mozilla/TTS/issues/491
Fine-tuning the pretrained Tacotron2 on Colab (`train.py --restore_path best_model.pth.tar`) stopped in
`TacotronLoss.forward` -> `ga_loss = self.criterion_ga(alignments, input_lens, alignment_lens)` with
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!":
`GuidedAttentionLoss._make_ga_masks` fills `torch.zeros((B, max_olen, max_ilen))` on the CPU and the
forward multiplies it with the CUDA attention weights; later versions add `.to(att_ws.device)`.
Stand-in: the GA loss inside TacotronLoss; "meta" plays the GPU, the length tensors stay on the CPU
(they are read for sizes) and the final masked_select is written as a masked mean.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def sequence_mask(sequence_length, max_len=None):
    if max_len is None:
        max_len = sequence_length.max()
    seq_range = torch.arange(max_len, dtype=sequence_length.dtype, device=sequence_length.device)
    return seq_range.unsqueeze(0) < sequence_length.unsqueeze(1)

class GuidedAttentionLoss(torch.nn.Module):
    def __init__(self, sigma=0.4):
        super().__init__()
        self.sigma = sigma

    def _make_ga_masks(self, ilens, olens):
        B = len(ilens)
        max_ilen = max(ilens)
        max_olen = max(olens)
        ga_masks = torch.zeros((B, max_olen, max_ilen))
        for idx, (ilen, olen) in enumerate(zip(ilens, olens)):
            ga_masks[idx, :olen, :ilen] = self._make_ga_mask(ilen, olen, self.sigma)
        return ga_masks

    def forward(self, att_ws, ilens, olens):
        ga_masks = self._make_ga_masks(ilens, olens)
        seq_masks = self._make_masks(ilens, olens).to(att_ws.device)
        losses = ga_masks * att_ws
        return (losses * seq_masks).sum() / seq_masks.sum()

    @staticmethod
    def _make_ga_mask(ilen, olen, sigma):
        grid_x, grid_y = torch.meshgrid(torch.arange(olen), torch.arange(ilen), indexing="ij")
        grid_x, grid_y = grid_x.float(), grid_y.float()
        return 1.0 - torch.exp(-((grid_y / ilen - grid_x / olen) ** 2) / (2 * (sigma ** 2)))

    @staticmethod
    def _make_masks(ilens, olens):
        in_masks = sequence_mask(ilens)
        out_masks = sequence_mask(olens)
        return out_masks.unsqueeze(-1) & in_masks.unsqueeze(-2)

class TacotronLoss(torch.nn.Module):
    def __init__(self, ga_alpha=5.0):
        super().__init__()
        self.criterion = nn.L1Loss()
        self.ga_alpha = ga_alpha
        self.criterion_ga = GuidedAttentionLoss(sigma=0.4)

    def forward(self, decoder_output, mel_input, alignments, alignment_lens, input_lens):
        loss = self.criterion(decoder_output, mel_input)
        ga_loss = self.criterion_ga(alignments, input_lens, alignment_lens)
        return loss + self.ga_alpha * ga_loss

device = torch.device("meta")
model = nn.Linear(80, 80).to(device)              # Tacotron2 restored from best_model.pth.tar
criterion = TacotronLoss(ga_alpha=5.0).to(device)
mel_input = torch.randn(2, 60, 80).to(device)
alignments = torch.softmax(torch.randn(2, 60, 30), dim=-1).to(device)
text_lengths = torch.tensor([30, 24])             # read on the host for the mask sizes
alignment_lengths = torch.tensor([60, 48])
'''
CELL = '''
decoder_output = model(mel_input)
loss = criterion(decoder_output, mel_input, alignments, alignment_lengths, text_lengths)
loss.backward()
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["criterion.criterion_ga"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("ga_masks = self._make_ga_masks(ilens, olens)\n", "ga_masks = self._make_ga_masks(ilens, olens).to(att_ws.device)\n")
CLEAN = False
