"""resemble-enhance `inference_chunk` with the documented CPU waveform: a 0-dim CPU `abs_max` normalises the CUDA chunk.

Source: https://github.com/resemble-ai/resemble-enhance/blob/main/resemble_enhance/inference.py (and app.py)
The repo's `app.py` loads audio with `torchaudio.load` (CPU), takes `dwav.mean(dim=0)` and passes
`device = "cuda"` to `enhance`/`denoise`. `inference_chunk` computes `abs_max = dwav.abs().max().clamp(min=1e-7)` on the
CPU, moves the chunk with `dwav.to(device)`, divides the CUDA chunk by the 0-dim CPU `abs_max`
(allowed: a CPU scalar tensor may join a CUDA op), brings the model output back with `.cpu()` and
unnormalises with the same CPU `abs_max`; `merge_chunks` then works on the CPU. Look-alike: a CPU
tensor inside GPU arithmetic and a `.cpu()` round trip; it runs.
Stand-ins: a tiny conv enhancer with `hp.wav_rate`; one chunk (no resampling, timing, offset search);
`dwav[None]`/`[0]` written `unsqueeze`/`select`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class HParams:
    wav_rate = 44100

class Enhancer(nn.Module):
    def __init__(self):
        super().__init__()
        self.hp = HParams()
        self.net = nn.Sequential(nn.Conv1d(1, 8, 9, padding=4), nn.Tanh(), nn.Conv1d(8, 1, 9, padding=4))

    def forward(self, x):
        return self.net(x.unsqueeze(1)).squeeze(1)

@torch.inference_mode()
def inference_chunk(model, dwav, sr, device, npad=441):
    assert model.hp.wav_rate == sr, f"Expected {model.hp.wav_rate} Hz, got {sr} Hz"
    del sr
    length = dwav.shape[-1]
    abs_max = dwav.abs().max().clamp(min=1e-7)
    assert dwav.dim() == 1, f"Expected 1D waveform, got {dwav.dim()}D"
    dwav = dwav.to(device)
    dwav = dwav / abs_max  # Normalize
    dwav = F.pad(dwav, (0, npad))
    hwav = model(dwav.unsqueeze(0)).select(0, 0).cpu()  # model(dwav[None])[0]
    hwav = hwav[:length]  # Trim padding
    hwav = hwav * abs_max  # Unnormalize
    return hwav

device = "cuda:0"
enhancer = Enhancer().to(device)
sr = 44100
dwav = torch.randn(2, sr).mean(dim=0)             # dwav, sr = torchaudio.load(path); dwav.mean(0)
'''
CELL = '''
hwav = inference_chunk(enhancer, dwav, sr, device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
