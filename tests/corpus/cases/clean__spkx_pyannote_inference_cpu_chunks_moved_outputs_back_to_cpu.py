"""Look-alike: pyannote.audio `Inference` slides over a CPU waveform and sends each batch of chunks to the model's device, bringing outputs back to the CPU.

Source: https://github.com/pyannote/pyannote-audio (src/pyannote/audio/core/inference.py)
`Inference.to(device)` moves the segmentation model; `slide()` cuts the CPU waveform into chunks with
`waveform.unfold(1, window_size, step_size)` and batches them on the CPU; `infer(chunks)` runs
`self.model(chunks.to(self.device))` under `torch.inference_mode()` and returns
`conversion(output).cpu().numpy()` ("Takes care of sending chunks to right device and outputs back to
CPU"). The CPU waveform and CPU chunks next to a CUDA model are by design.
Stand-ins: PyanNet reduced to a strided conv + linear frame classifier, `conversion` an Identity;
the final `.numpy()` is left out.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class PyanNet(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.sincnet = nn.Conv1d(1, 8, 251, stride=160)
        self.classifier = nn.Linear(8, num_classes)

    def forward(self, waveforms):
        feats = self.sincnet(waveforms).transpose(1, 2)
        return torch.sigmoid(self.classifier(feats))

class Inference:
    def __init__(self, model, window_size=3200, step_size=1600, batch_size=4, device=None):
        self.model = model
        self.model.eval()
        self.window_size, self.step_size, self.batch_size = window_size, step_size, batch_size
        self.conversion = nn.Identity()
        self.device = torch.device("cpu") if device is None else device

    def to(self, device):
        self.model.to(device)
        self.conversion.to(device)
        self.device = device
        return self

    def infer(self, chunks):
        with torch.inference_mode():
            outputs = self.model(chunks.to(self.device))
        return self.conversion(outputs).cpu()          # .numpy() in pyannote

    def slide(self, waveform):
        chunks = waveform.unfold(1, self.window_size, self.step_size)   # (channel, num_chunks, window)
        chunks = chunks.transpose(0, 1)                                  # (num_chunks, channel, window)
        return chunks

inference = Inference(PyanNet()).to(torch.device("cuda:0"))
waveform = torch.randn(1, 16000)        # Audio()(file) on the CPU
chunks = inference.slide(waveform)
'''
CELL = '''
outputs = inference.infer(chunks)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
