"""pyannote DiarizationErrorRate metric: the scalar threshold becomes a CPU tensor inside the update function.

Source: https://github.com/pyannote/pyannote-audio/pull/961
"Fix torchmetrics DER threshold being on a different device when using cuda": in the torchmetrics
DER, a scalar threshold is turned into `threshold = torch.tensor([threshold], dtype=preds.dtype)`
and then compared, `hypothesis = (permutated_preds.unsqueeze(-1) > threshold).float()`; with CUDA
preds this raised "found at least two devices, cuda:0 and cpu!". The PR adds `device=preds.device`.
Stand-in: `_der_update` reduced to the thresholding and the three error counts; the metric object
holds its states on the same device as the predictions (it was moved with the model).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def _der_update(preds, target, threshold=0.5):
    # preds, target: (batch_size, num_speakers, num_frames)
    if isinstance(threshold, float):
        threshold = torch.tensor([threshold], dtype=preds.dtype)
    permutated_preds = preds                      # (optimal permutation omitted)
    hypothesis = (permutated_preds.unsqueeze(-1) > threshold).float()
    target = target.unsqueeze(-1)
    detection_error = torch.sum(hypothesis, 1) - torch.sum(target, 1)
    false_alarm = torch.maximum(detection_error, torch.zeros_like(detection_error))
    missed_detection = torch.maximum(-detection_error, torch.zeros_like(detection_error))
    speaker_confusion = torch.sum((hypothesis != target) * hypothesis, 1) - false_alarm
    speech_total = 1.0 * torch.sum(target, 1)
    return (torch.sum(false_alarm, (0, 1)), torch.sum(missed_detection, (0, 1)),
            torch.sum(speaker_confusion, (0, 1)), torch.sum(speech_total, (0, 1)))

class DiarizationErrorRate(nn.Module):
    def __init__(self, threshold=0.5):
        super().__init__()
        self.threshold = threshold
        self.register_buffer("false_alarm", torch.zeros(1))
        self.register_buffer("missed_detection", torch.zeros(1))
        self.register_buffer("speaker_confusion", torch.zeros(1))
        self.register_buffer("speech_total", torch.zeros(1))

    def forward(self, preds, target):
        fa, md, sc, st = _der_update(preds, target, threshold=self.threshold)
        self.false_alarm += fa
        self.missed_detection += md
        self.speaker_confusion += sc
        self.speech_total += st
        return (self.false_alarm + self.missed_detection + self.speaker_confusion) / self.speech_total

device = torch.device("cuda:0")
der = DiarizationErrorRate(threshold=0.5).to(device)
preds = torch.rand(4, 3, 100).to(device)
target = (torch.rand(4, 3, 100) > 0.5).float().to(device)
'''
CELL = '''
value = der(preds, target)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["threshold"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "threshold = torch.tensor([threshold], dtype=preds.dtype)",
    "threshold = torch.tensor([threshold], dtype=preds.dtype, device=preds.device)",
)
CLEAN = False
