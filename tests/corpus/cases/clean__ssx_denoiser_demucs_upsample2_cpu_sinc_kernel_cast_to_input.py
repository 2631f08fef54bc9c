"""facebookresearch/denoiser Demucs on the GPU: `upsample2` builds its sinc kernel on the CPU every call and casts it with `.to(x)`.

Source: https://github.com/facebookresearch/denoiser/blob/main/denoiser/resample.py (used by denoiser/demucs.py)
`Demucs.forward` normalises the noisy waveform and, with `resample=2`, calls `upsample2(x)`.
`kernel_upsample2()` makes a Hann-windowed sinc kernel with `th.hann_window` / `th.linspace` on the
default (CPU) device, and `upsample2` immediately does `kernel = kernel_upsample2(zeros).to(x)`
(device and dtype of the input) before the conv. Look-alike: a tensor created without a device in a
helper that the GPU forward uses; it runs.
Stand-ins: Demucs reduced to normalisation, `upsample2`, a two-layer conv body and a stride-2 conv in
place of `downsample2`; `[..., 1:]` / `[..., :length]` written with `narrow` (the fake-CUDA
simulation cannot slice CUDA tensors).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch as th
from torch import nn
from torch.nn import functional as F

def sinc(t):
    return th.where(t == 0, th.tensor(1., device=t.device, dtype=t.dtype), th.sin(t) / t)

def kernel_upsample2(zeros=56):
    win = th.hann_window(4 * zeros + 1, periodic=False)
    winodd = win[1::2]
    t = th.linspace(-zeros + 0.5, zeros - 0.5, 2 * zeros)
    t *= math.pi
    kernel = (sinc(t) * winodd).view(1, 1, -1)
    return kernel

def upsample2(x, zeros=56):
    *other, time = x.shape
    kernel = kernel_upsample2(zeros).to(x)
    out = F.conv1d(x.view(-1, 1, time), kernel, padding=zeros).narrow(-1, 1, time).view(*other, time)
    y = th.stack([x, out], dim=-1)
    return y.view(*other, -1)

class Demucs(nn.Module):
    """denoiser.demucs.Demucs (stand-in), resample=2, normalize=True."""
    def __init__(self, hidden=8, floor=1e-3):
        super().__init__()
        self.floor = floor
        self.body = nn.Sequential(nn.Conv1d(1, hidden, 9, padding=4), nn.ReLU(),
                                  nn.Conv1d(hidden, 1, 9, padding=4))
        self.down = nn.Conv1d(1, 1, 2, stride=2)             # stands for downsample2

    def forward(self, mix):
        if mix.dim() == 2:
            mix = mix.unsqueeze(1)
        mono = mix.mean(dim=1, keepdim=True)
        std = mono.std(dim=-1, keepdim=True)
        mix = mix / (self.floor + std)
        length = mix.shape[-1]
        x = upsample2(mix)
        x = self.down(self.body(x))
        x = x.narrow(-1, 0, length)
        return std * x

device = "cuda:0"
model = Demucs().to(device)
model.eval()
noisy = th.randn(2, 1, 16000).to(device)              # noisy_signals.to(args.device)
'''
CELL = '''
with th.no_grad():
    estimate = model(noisy)
    estimate = (1 - 0.05) * estimate + 0.05 * noisy      # --dry 0.05
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
