"""asteroid `LambdaOverlapAdd` around a GPU separator: its OLA `window` buffer stays on the CPU because the wrapper itself was never moved.

Source: https://github.com/asteroid-team/asteroid/pull/675
"Update overlap_add.py, auto casting device for window": `LambdaOverlapAdd` registers the scipy
window as a buffer in `__init__` (on the CPU) and multiplies every separated chunk by it in
`ola_forward` (`tmp = tmp * self.window`). Wrapping a network that already sits on the GPU and feeding
GPU audio fails there unless `.to()` is called on the instantiated wrapper; the PR made the product
cast the window to the chunk (`self.window.to(tmp)`). Stand-in: `LambdaOverlapAdd` as in asteroid
(numpy Hann window, unfold/fold, without the chunk reordering), a tiny separator; meta plays the GPU.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
from torch import nn

class LambdaOverlapAdd(torch.nn.Module):
    """asteroid.dsp.overlap_add.LambdaOverlapAdd (stand-in, reorder_chunks=False)."""
    def __init__(self, nnet, n_src, window_size, hop_size=None, window="hanning",
                 reorder_chunks=False, enable_grad=False):
        super().__init__()
        assert window_size % 2 == 0, "Window size must be even"
        self.nnet = nnet
        self.window_size = window_size
        self.hop_size = hop_size if hop_size is not None else window_size // 2
        self.n_src = n_src
        if window:
            window = np.hanning(self.window_size).astype("float32")   # scipy get_window
            window = torch.from_numpy(window)
            self.use_window = True
        else:
            self.use_window = False
        self.register_buffer("window", window)
        self.reorder_chunks = reorder_chunks
        self.enable_grad = enable_grad

    def ola_forward(self, x):
        batch, channels, n_frames = x.size()
        folded = torch.nn.functional.unfold(
            x.unsqueeze(-1), kernel_size=(self.window_size, 1),
            padding=(self.window_size, 0), stride=(self.hop_size, 1))
        out = []
        n_chunks = folded.shape[-1]
        for f in range(n_chunks):
            tmp = self.nnet(folded[..., f])
            tmp = tmp.reshape(batch * self.n_src, -1)
            if self.use_window:
                tmp = tmp * self.window
            else:
                tmp = tmp / (self.window_size / self.hop_size)
            out.append(tmp)
        out = torch.stack(out).reshape(n_chunks, batch * self.n_src, self.window_size)
        out = out.permute(1, 2, 0)
        out = torch.nn.functional.fold(
            out, (n_frames, 1), kernel_size=(self.window_size, 1),
            padding=(self.window_size, 0), stride=(self.hop_size, 1))
        return out.squeeze(-1).reshape(batch, self.n_src, -1)

    def forward(self, x):
        with torch.autograd.set_grad_enabled(self.enable_grad):
            return self.ola_forward(x)

class TinySeparator(nn.Module):
    """A pretrained 2-speaker separator (stand-in): (batch, time) -> (batch, n_src, time)."""
    def __init__(self, n_src=2):
        super().__init__()
        self.n_src = n_src
        self.enc = nn.Conv1d(1, 16, 9, padding=4)
        self.dec = nn.Conv1d(16, n_src, 9, padding=4)

    def forward(self, wav):
        return self.dec(torch.relu(self.enc(wav.unsqueeze(1))))

device = "meta"                                      # "cuda"
nnet = TinySeparator().to(device)
continuous_nnet = LambdaOverlapAdd(nnet=nnet, n_src=2, window_size=256, hop_size=128,
                                   window="hanning", reorder_chunks=False, enable_grad=False)
wav = torch.randn(1, 1, 2048).to(device)             # a long meeting recording
'''
CELL = '''
out_wavs = continuous_nnet(wav)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["continuous_nnet.window"]
FIX = "namespace"
REFERENCE_FIX = '''
continuous_nnet = continuous_nnet.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
