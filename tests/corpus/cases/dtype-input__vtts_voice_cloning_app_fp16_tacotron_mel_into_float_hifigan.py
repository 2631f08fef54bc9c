"""Voice-Cloning-App: synthesis with the HiFi-GAN vocoder gets a half-precision mel from the fp16 Tacotron2.

Source: https://github.com/voice-cloning-app/Voice-Cloning-App/issues/29
Synthesising with the newly added HiFi-GAN option failed in the generator's first conv: "Input type
(torch.cuda.HalfTensor) and weight type (torch.cuda.FloatTensor) should be the same". The Tacotron2
synthesiser runs in half precision, so its mel spectrogram is float16, while the HiFi-GAN generator
was loaded in float32; the mel has to be cast to the vocoder's dtype (or the vocoder halved).
Stand-in: a HiFi-GAN-shaped generator (conv_pre, one upsample, conv_post); CPU, dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class Generator(nn.Module):
    def __init__(self, n_mels=80, ch=32):
        super().__init__()
        self.conv_pre = nn.Conv1d(n_mels, ch, 7, padding=3)
        self.up = nn.ConvTranspose1d(ch, ch // 2, 16, stride=8, padding=4)
        self.conv_post = nn.Conv1d(ch // 2, 1, 7, padding=3)

    def forward(self, x):
        x = self.conv_pre(x)
        x = self.up(torch.nn.functional.leaky_relu(x, 0.1))
        return torch.tanh(self.conv_post(torch.nn.functional.leaky_relu(x)))

hifigan = Generator()
hifigan.eval()
mel_outputs_postnet = torch.randn(1, 80, 120).half()   # from the fp16 Tacotron2 inference
'''
CELL = '''
with torch.no_grad():
    y_g_hat = hifigan(mel_outputs_postnet)
audio = y_g_hat.squeeze()
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "same dtype")
CULPRITS = ["mel_outputs_postnet"]
FIX = "namespace"
REFERENCE_FIX = '''
mel_outputs_postnet = mel_outputs_postnet.float()
'''
REFERENCE_EDIT = None
CLEAN = False
