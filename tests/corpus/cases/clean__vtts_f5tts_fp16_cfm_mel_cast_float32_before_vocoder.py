"""F5-TTS inference: the CFM model runs in float16, the vocoder in float32, and the generated mel is cast to float32 in between.

Source: https://github.com/SWivid/F5-TTS/blob/main/src/f5_tts/infer/utils_infer.py
`load_model` loads the CFM checkpoint in half precision where supported, while the Vocos/BigVGAN
vocoder stays float32; `infer_batch_process` does `generated = generated.to(torch.float32)` and
permutes the mel before `vocoder.decode(generated)`. Look-alike: a half model feeding a float model
on purpose, that runs. Stand-in: tiny CFM and Vocos; CPU (dtype only; bfloat16 stands in for
float16 so the CPU kernels exist).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class CFM(nn.Module):
    def __init__(self, n_mel=24):
        super().__init__()
        self.net = nn.Linear(n_mel, n_mel)
    @torch.no_grad()
    def sample(self, cond, steps=2):
        x = torch.randn_like(cond)
        for _ in range(steps):
            x = x + 0.5 * self.net(x + cond)
        return x

class Vocos(nn.Module):
    def __init__(self, n_mel=24):
        super().__init__()
        self.embed = nn.Conv1d(n_mel, 32, 7, padding=3)
        self.head = nn.Linear(32, 64)
    @torch.no_grad()
    def decode(self, mel):
        return self.head(self.embed(mel).transpose(1, 2)).flatten(1)

model = CFM().to(torch.bfloat16)
vocoder = Vocos()
ref_mel = torch.randn(1, 50, 24, dtype=torch.bfloat16)
'''
CELL = '''
generated = model.sample(ref_mel)
generated = generated.to(torch.float32)
generated_mel_spec = generated.permute(0, 2, 1)
generated_wave = vocoder.decode(generated_mel_spec)
print(generated_wave.shape, generated_wave.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
