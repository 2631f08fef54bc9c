"""F5-TTS inference: `infer_batch` passes the reference audio loaded on the CPU to the CFM model on cuda.

Source: https://github.com/SWivid/F5-TTS/pull/213
After an update, inference failed with "Expected all tensors to be on the same device, but found at
least two devices, cpu and cuda:0": the `audio = audio.to(device)` line had been dropped from the
batch-inference helper, so the waveform from `torchaudio.load` (CPU) went into the model's mel
front-end and conditioning on the GPU. The maintainer put the line back (198d44d).
Stand-in: a CFM-shaped model (mel projection, text embedding, one sampling step) and the helper that
loads the reference audio itself, from a path.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

device = "cuda:0"

class CFM(nn.Module):
    def __init__(self, hop=256, n_mel=24, vocab=64, dim=32):
        super().__init__()
        self.hop = hop
        self.mel_spec = nn.Linear(hop, n_mel)
        self.text_embed = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(n_mel + dim, n_mel)

    def sample(self, cond, text, duration, steps=2):
        b, t = cond.shape
        mel = self.mel_spec(cond.reshape(b, t // self.hop, self.hop))
        txt = self.text_embed(text)[:, :1].expand(-1, mel.shape[1], -1)
        x = torch.randn(b, mel.shape[1], mel.shape[2], device=mel.device)
        for _ in range(steps):
            x = x + 0.5 * self.proj(torch.cat([x + mel, txt], dim=-1))
        return x

def load_audio(path):
    return torch.randn(1, 256 * 40), 24000    # torchaudio.load: a CPU tensor

def infer_batch(ref_file, ref_text, gen_text, model):
    audio, sr = load_audio(ref_file)
    if audio.shape[0] > 1:
        audio = torch.mean(audio, dim=0, keepdim=True)
    text = torch.tensor([[ord(c) % 64 for c in ref_text + " " + gen_text]], device=device)
    with torch.inference_mode():
        generated = model.sample(cond=audio, text=text, duration=80)
    return generated

ema_model = CFM().to(device)
'''
CELL = '''
wave = infer_batch("tests/ref_audio/test_en_1_ref_short.wav",
                   "Some call me nature.", "I don't really care what you call me.", ema_model)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["audio"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    audio, sr = load_audio(ref_file)\n",
                  "    audio, sr = load_audio(ref_file)\n    audio = audio.to(device)\n")
CLEAN = False
