"""Look-alike: a metric's update turns its float threshold into a tensor inside the function, on the preds' device.

Source: https://github.com/pyannote/pyannote-audio/pull/961
The fixed torchmetrics DER: `threshold = torch.tensor([threshold], dtype=preds.dtype,
device=preds.device)` before `(permutated_preds.unsqueeze(-1) > threshold)`. A tensor created
inside a helper during a GPU step, correctly placed; nothing to report.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def _der_update(preds, target, threshold=0.5):
    if isinstance(threshold, float):
        threshold = torch.tensor([threshold], dtype=preds.dtype, device=preds.device)
    hypothesis = (preds.unsqueeze(-1) > threshold).float()
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
        self.register_buffer("errors", torch.zeros(1))
        self.register_buffer("speech_total", torch.zeros(1))

    def forward(self, preds, target):
        fa, md, sc, st = _der_update(preds, target, threshold=self.threshold)
        self.errors += fa + md + sc
        self.speech_total += st
        return self.errors / self.speech_total

device = torch.device("cuda:0")
der = DiarizationErrorRate(threshold=0.5).to(device)
preds = torch.rand(4, 3, 100).to(device)
target = (torch.rand(4, 3, 100) > 0.5).float().to(device)
'''
CELL = '''
value = der(preds, target)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
