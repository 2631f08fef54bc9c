"""AudioClassification-Pytorch `infer.py`: the spectrogram tensor is built on the CPU and fed to the model on the GPU.

Source: https://github.com/yeyupiaoling/AudioClassification-Pytorch/issues/1
"RuntimeError: Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the
same": the user had already changed the input to a float tensor and still got the error; the
maintainer pointed at the two lines of `reader.py`/`infer.py` that build the input (fixed upstream:
a float32 tensor made for the model's device). The input spectrogram `data` (numpy -> torch) stays
on the CPU while `model` was moved to CUDA. Stand-in: the ResNet classifier reduced to conv + pooling
+ fc, `load_audio` returns a random magnitude spectrogram. SIM meta: "meta" plays the GPU.
"""

SIM = "meta"
FAMILY = "device-loose"
SETUP = '''
import numpy as np
import torch
from torch import nn

def load_audio(audio_path, mode="infer", spec_len=257):
    rng = np.random.default_rng(0)
    spec_mag = np.abs(rng.standard_normal((257, spec_len)))          # librosa.stft magnitude
    mean = np.mean(spec_mag, 0, keepdims=True)
    std = np.std(spec_mag, 0, keepdims=True)
    return (spec_mag - mean) / (std + 1e-5)

class ResNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, kernel_size=3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        return self.fc(self.pool(torch.relu(self.conv1(x))).flatten(1))

device = torch.device("meta")                        # torch.device("cuda")
model = ResNet(num_classes=10)
model.to(device)
model.eval()
audio_path = "dataset/test.wav"
data = load_audio(audio_path, mode="infer")
data = data[np.newaxis, np.newaxis, :]
data = torch.tensor(data, dtype=torch.float32)
'''
CELL = '''
with torch.no_grad():
    output = model(data)
    lab = torch.argmax(output, dim=1)
'''
EXPECT_ERROR = ("is not on the expected device", "Input type", "Expected all tensors to be on the same device")
CULPRITS = ["data"]
FIX = "namespace"
REFERENCE_FIX = '''
data = data.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
