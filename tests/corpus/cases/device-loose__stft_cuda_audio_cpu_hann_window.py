"""`torch.stft` on a CUDA waveform with a Hann window the user built on the CPU.

Source: https://github.com/pytorch/pytorch/issues/30865
"stft does not consistently check window device": the user loaded audio with librosa, moved it
with `x = torch.from_numpy(x).to("cuda:0")                  # .cuda()`, built `window = torch.hann_window(window_length=400)` on the
CPU and called `torch.stft(x, n_fft=400, hop_length=160, win_length=400, window=window)`, which
failed. A maintainer (SsnL): "the error message is indeed confusing. The issue is that your
window is still on CPU." (The inconsistency with `n_fft=512`, where the window was padded, was
fixed later; today both raise "stft input and window must be on the same device".)
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import numpy as np
import torch

sr = 22050
x = np.random.uniform(-1, 1, size=(sr,)).astype(np.float32)   # librosa.load(...) stand-in
x = torch.from_numpy(x).to("cuda:0")                  # .cuda()
window = torch.hann_window(window_length=400)
'''
CELL = '''
spec = torch.stft(x, n_fft=400, hop_length=160, win_length=400, window=window,
                  return_complex=True)
'''
EXPECT_ERROR = "stft input and window must be on the same device"
CULPRITS = ["window"]
FIX = "namespace"
REFERENCE_FIX = '''
window = window.to(x.device)
'''
REFERENCE_EDIT = None
CLEAN = False
