"""ttspod with F5-TTS: the float16 mel spectrogram from the new F5 build goes into the float32 Vocos decoder.

Source: https://github.com/SWivid/F5-TTS/issues/192
After updating F5-TTS, the user's `infer_batch` failed at `self.vocos.decode(generated_mel_spec.cpu())`
with "Input type (c10::Half) and bias type (float) should be the same" in Vocos' `embed` conv: the
latest build ran the CFM model in half precision, so the generated mel came out float16, while the
Vocos vocoder was loaded in float32. Casting the mel to float32 before decoding fixes it.
Stand-in: a Vocos-shaped decoder (conv embed, backbone, linear head) in float32 on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class VocosBackbone(nn.Module):
    def __init__(self, n_mels=100, dim=48):
        super().__init__()
        self.embed = nn.Conv1d(n_mels, dim, kernel_size=7, padding=3)
        self.norm = nn.LayerNorm(dim)
        self.mix = nn.Linear(dim, dim)

    def forward(self, x):
        x = self.embed(x).transpose(1, 2)
        return self.mix(self.norm(x))

class Vocos(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = VocosBackbone()
        self.head = nn.Linear(48, 256)

    @torch.no_grad()
    def decode(self, features_input):
        x = self.backbone(features_input)
        return self.head(x).flatten(1)

vocos = Vocos()
generated_mel_spec = torch.randn(1, 100, 90).half()   # CFM sampled in fp16, permuted to (b, mel, t)
'''
CELL = '''
generated_wave = vocos.decode(generated_mel_spec.cpu())
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "same dtype")
CULPRITS = ["generated_mel_spec"]
FIX = "namespace"
REFERENCE_FIX = '''
generated_mel_spec = generated_mel_spec.float()
'''
REFERENCE_EDIT = None
CLEAN = False
