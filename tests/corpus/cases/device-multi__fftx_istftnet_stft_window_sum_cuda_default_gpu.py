"""iSTFTNet's `STFT.inverse` on the second GPU: `window_sum.cuda()` lands on cuda:0 while the signal is on cuda:1.

Source: https://github.com/rishikksh20/iSTFTNet-pytorch/issues/1
"A multi-gpu training bug": in stft.py, `window_sum = window_sum.cuda() if magnitude.is_cuda else
window_sum` followed by `inverse_transform[:, :, approx_nonzero_indices] /= window_sum[...]` "would
get errors. Because, inverse_transform might in cuda1 while window_sum in cuda0. Change line 164 to
window_sum = window_sum.to(inverse_transform.device) ... will fix the problem"; the maintainer agreed.
Stand-in: that `STFT` module (pseeth/torch-stft) with numpy replacements for scipy's `get_window`
and librosa's `pad_center`/`tiny`/`normalize`; `.cuda()` (the current device, cuda:0) is written
`.to("cuda:0")` and the division over the non-tiny envelope samples as a division by the envelope
clamped to `tiny`; the training process's model runs on cuda:1.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F
from torch.autograd import Variable

def get_window(window, win_length, fftbins=True):
    return 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(win_length) / win_length)   # periodic hann

def pad_center(data, size):
    lpad = (size - data.shape[-1]) // 2
    return np.pad(data, (lpad, size - data.shape[-1] - lpad))

def tiny(x):
    return np.finfo(np.asarray(x).dtype).tiny

def window_sumsquare(window, n_frames, hop_length=200, win_length=800,
                     n_fft=800, dtype=np.float32, norm=None):
    if win_length is None:
        win_length = n_fft
    n = n_fft + hop_length * (n_frames - 1)
    x = np.zeros(n, dtype=dtype)
    win_sq = get_window(window, win_length, fftbins=True)
    win_sq = (win_sq / np.abs(win_sq).max()) ** 2
    win_sq = pad_center(win_sq, n_fft)
    for i in range(n_frames):
        sample = i * hop_length
        x[sample:min(n, sample + n_fft)] += win_sq[:max(0, min(n_fft, n - sample))]
    return x

class STFT(torch.nn.Module):
    """adapted from Prem Seetharaman's https://github.com/pseeth/pytorch-stft (iSTFTNet stft.py)"""
    def __init__(self, filter_length=800, hop_length=200, win_length=800,
                 window='hann'):
        super(STFT, self).__init__()
        self.filter_length = filter_length
        self.hop_length = hop_length
        self.win_length = win_length
        self.window = window
        scale = self.filter_length / self.hop_length
        fourier_basis = np.fft.fft(np.eye(self.filter_length))
        cutoff = int((self.filter_length / 2 + 1))
        fourier_basis = np.vstack([np.real(fourier_basis[:cutoff, :]),
                                   np.imag(fourier_basis[:cutoff, :])])
        forward_basis = torch.FloatTensor(fourier_basis[:, None, :])
        inverse_basis = torch.FloatTensor(
            np.linalg.pinv(scale * fourier_basis).T[:, None, :])
        if window is not None:
            fft_window = get_window(window, win_length, fftbins=True)
            fft_window = pad_center(fft_window, filter_length)
            fft_window = torch.from_numpy(fft_window).float()
            forward_basis *= fft_window
            inverse_basis *= fft_window
        self.register_buffer('forward_basis', forward_basis.float())
        self.register_buffer('inverse_basis', inverse_basis.float())

    def transform(self, input_data):
        num_batches = input_data.size(0)
        num_samples = input_data.size(1)
        input_data = input_data.view(num_batches, 1, num_samples)
        input_data = F.pad(
            input_data.unsqueeze(1),
            (int(self.filter_length / 2), int(self.filter_length / 2), 0, 0),
            mode='reflect')
        input_data = input_data.squeeze(1)
        forward_transform = F.conv1d(
            input_data,
            Variable(self.forward_basis, requires_grad=False),
            stride=self.hop_length,
            padding=0)
        cutoff = int((self.filter_length / 2) + 1)
        real_part = forward_transform[:, :cutoff, :]
        imag_part = forward_transform[:, cutoff:, :]
        magnitude = torch.sqrt(real_part**2 + imag_part**2)
        phase = torch.atan2(imag_part, real_part)
        return magnitude, phase

    def inverse(self, magnitude, phase):
        recombine_magnitude_phase = torch.cat(
            [magnitude*torch.cos(phase), magnitude*torch.sin(phase)], dim=1)
        inverse_transform = F.conv_transpose1d(
            recombine_magnitude_phase,
            Variable(self.inverse_basis, requires_grad=False),
            stride=self.hop_length,
            padding=0)
        if self.window is not None:
            window_sum = window_sumsquare(
                self.window, magnitude.size(-1), hop_length=self.hop_length,
                win_length=self.win_length, n_fft=self.filter_length,
                dtype=np.float32)
            window_sum = torch.autograd.Variable(
                torch.from_numpy(np.maximum(window_sum, tiny(window_sum))), requires_grad=False)
            window_sum = window_sum.to("cuda:0") if magnitude.is_cuda else window_sum   # .cuda(): current device
            inverse_transform = inverse_transform / window_sum
            inverse_transform *= float(self.filter_length) / self.hop_length
        inverse_transform = inverse_transform[:, :, int(self.filter_length/2):]
        inverse_transform = inverse_transform[:, :, :-int(self.filter_length/2):]
        return inverse_transform

    def forward(self, input_data):
        self.magnitude, self.phase = self.transform(input_data)
        reconstruction = self.inverse(self.magnitude, self.phase)
        return reconstruction

rank = 1                                   # the second training process
device = torch.device('cuda:{:d}'.format(rank))
stft = STFT(filter_length=16, hop_length=4, win_length=16).to(device)
y = torch.randn(2, 8192, device=device)
'''
CELL = '''
y_g_hat = stft(y)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["stft"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    'window_sum = window_sum.to("cuda:0") if magnitude.is_cuda else window_sum',
    'window_sum = window_sum.to(inverse_transform.device) if magnitude.is_cuda else window_sum',
)
CLEAN = False
