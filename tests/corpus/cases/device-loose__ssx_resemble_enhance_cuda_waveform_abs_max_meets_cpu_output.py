"""resemble-enhance: a waveform already on the GPU makes `inference_chunk` multiply the CPU output by a CUDA `abs_max`.

Source: https://github.com/resemble-ai/resemble-enhance/pull/77
Passing a CUDA tensor to `enhance()`/`denoise()` fails with "Expected all tensors to be on the same
device": `inference_chunk` takes `abs_max = dwav.abs().max()` from the caller's tensor before its own
`dwav.to(device)`, runs the model, brings the result back with `.cpu()` and unnormalizes with
`hwav * abs_max` (cpu * cuda). The report: callers must pass a CPU waveform and hand the GPU over
through `device=` (an undocumented constraint; the repo's own `app.py` does exactly that with
`torchaudio.load`); the PR also proposes a one-line change inside `inference_chunk`. Here the user
moved the loaded waveform to the GPU themselves; the fix the report gives for callers is to keep
`dwav` on the CPU.
Stand-ins: a tiny conv enhancer with `hp.wav_rate`, `inference`/`inference_chunk`/`merge_chunks` in
the library's names without resampling, timing and chunk-offset search; `dwav[None]` / `[0]` /
chunk slicing are written `unsqueeze`/`select`/`narrow` (same values) because the fake-CUDA
simulation cannot index a CUDA tensor.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class HParams:
    wav_rate = 44100

class Enhancer(nn.Module):
    """resemble_enhance.enhancer.Enhancer (stand-in): waveform in, enhanced waveform out."""
    def __init__(self):
        super().__init__()
        self.hp = HParams()
        self.net = nn.Sequential(nn.Conv1d(1, 8, 9, padding=4), nn.Tanh(), nn.Conv1d(8, 1, 9, padding=4))

    def forward(self, x):                       # (B, T) -> (B, T)
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
    hwav = model(dwav.unsqueeze(0)).select(0, 0).cpu()  # model(dwav[None])[0]  (T,)
    hwav = hwav[:length]  # Trim padding
    hwav = hwav * abs_max  # Unnormalize
    return hwav

def merge_chunks(chunks, chunk_length, hop_length, sr=44100, length=None):
    signal_length = (len(chunks) - 1) * hop_length + chunk_length
    overlap_length = chunk_length - hop_length
    signal = torch.zeros(signal_length, device=chunks[0].device)
    fadein = torch.linspace(0, 1, overlap_length, device=chunks[0].device)
    fadein = torch.cat([fadein, torch.ones(hop_length, device=chunks[0].device)])
    fadeout = torch.linspace(1, 0, overlap_length, device=chunks[0].device)
    fadeout = torch.cat([torch.ones(hop_length, device=chunks[0].device), fadeout])
    for i, chunk in enumerate(chunks):
        start = i * hop_length
        end = start + chunk_length
        if len(chunk) < chunk_length:
            chunk = F.pad(chunk, (0, chunk_length - len(chunk)))
        if i == 0:
            chunk = chunk * fadeout
        elif i == len(chunks) - 1:
            chunk = chunk * fadein
        else:
            chunk = chunk * fadein * fadeout
        signal[start:end] += chunk[: len(signal[start:end])]
    return signal[:length]

def inference(model, dwav, sr, device, chunk_seconds: float = 30.0, overlap_seconds: float = 1.0):
    hp = model.hp
    sr = hp.wav_rate                            # (resampling to hp.wav_rate omitted)
    chunk_length = int(sr * chunk_seconds)
    overlap_length = int(sr * overlap_seconds)
    hop_length = chunk_length - overlap_length
    n = dwav.shape[-1]
    chunks = []
    for start in range(0, n, hop_length):
        piece = dwav.narrow(-1, start, min(chunk_length, n - start))   # dwav[start : start + chunk_length]
        chunks.append(inference_chunk(model, piece, sr, device))
    hwav = merge_chunks(chunks, chunk_length, hop_length, sr=sr, length=n)
    return hwav, sr

device = "cuda:0"
enhancer = Enhancer().to(device)                # load_enhancer(run_dir, device)
sr = 44100
dwav = torch.randn(2 * sr)                      # dwav, sr = torchaudio.load(path); dwav = dwav.mean(dim=0)
dwav = dwav.to(device)                          # the user's move to the GPU
'''
CELL = '''
hwav, new_sr = inference(model=enhancer, dwav=dwav, sr=sr, device=device)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["dwav"]
FIX = "namespace"
REFERENCE_FIX = '''
dwav = dwav.cpu()
'''
REFERENCE_EDIT = None
CLEAN = False
