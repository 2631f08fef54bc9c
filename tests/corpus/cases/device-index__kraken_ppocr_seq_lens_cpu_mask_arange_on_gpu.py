"""kraken PP-OCR recognition on the GPU: the line is moved to cuda, its `seq_lens` stays a CPU LongTensor.

Source: https://github.com/mittagessen/kraken/issues/793
"`ppocrv6` GPU OCR: `cuda:0` vs `cpu` in `_lengths_and_mask`": GPU recognition failed immediately
with "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and
cpu!". The reporter traced it: the line tensors are moved to the accelerator, but `seq_lens` in
`CTCRecognitionInferenceMixin` is still a CPU `torch.LongTensor`; `_lengths_and_mask` builds an
`arange(..., device=feat.device)` and compares it with lengths derived from `seq_lens`. Their fix:
`seq_lens = seq_lens.to(device)` at the start of `_lengths_and_mask`. Stand-in: a tiny conv/linear
recognizer with that helper and the inference mixin.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
import torch.nn as nn

class PPOCRNet(nn.Module):
    def __init__(self, num_classes=80, reduction=4):
        super().__init__()
        self.reduction = reduction
        self.backbone = nn.Sequential(
            nn.Conv2d(1, 32, 3, stride=(2, 2), padding=1), nn.ReLU(),
            nn.Conv2d(32, 64, 3, stride=(2, 2), padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d((1, None)))
        self.head = nn.Linear(64, num_classes)

    def _lengths_and_mask(self, feat, seq_lens):
        lens = torch.div(seq_lens + self.reduction - 1, self.reduction, rounding_mode='floor')
        positions = torch.arange(feat.shape[-1], device=feat.device)
        mask = positions.unsqueeze(0) < lens.unsqueeze(1)
        return lens, mask

    def forward(self, line, seq_lens):
        feat = self.backbone(line).squeeze(2)              # (N, C, W')
        lens, mask = self._lengths_and_mask(feat, seq_lens)
        feat = feat * mask.unsqueeze(1)
        return self.head(feat.transpose(1, 2)).log_softmax(-1), lens

class CTCRecognitionInferenceMixin:
    def _rec_predict(self, line):
        seq_lens = torch.tensor([line.shape[-1]], dtype=torch.long)   # a torch.LongTensor in kraken
        line = line.to(self.device)                       # Fabric moves the line, not the lengths
        o, olens = self.nn(line.unsqueeze(0), seq_lens)
        return o, olens

class TorchSeqRecognizer(CTCRecognitionInferenceMixin):
    def __init__(self, nn, device="cpu"):
        self.nn = nn.to(device)
        self.device = torch.device(device)

rec = TorchSeqRecognizer(PPOCRNet(), device="cuda:0")
line = torch.rand(1, 48, 320)                            # one normalized line image
'''
CELL = '''
o, olens = rec._rec_predict(line)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["seq_lens"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    def _lengths_and_mask(self, feat, seq_lens):\n",
                  "    def _lengths_and_mask(self, feat, seq_lens):\n        seq_lens = seq_lens.to(feat.device)\n")
CLEAN = False
