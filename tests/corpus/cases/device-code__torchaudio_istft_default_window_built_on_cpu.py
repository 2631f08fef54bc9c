"""torchaudio's early `istft` on a GPU spectrogram: its default window `torch.ones(win_length)` is made on the CPU.

Source: https://github.com/pytorch/audio/issues/240
"Suggestion: The device-aware declaration of variable 'window' in istft function": the user's
speech-enhancement model produced its STFT on the GPU and called `torchaudio.functional.istft`
without a window; `window = torch.ones(win_length)` was created on the CPU and the product with
the CUDA frames failed. The user suggested creating it on `stft_matrix`'s device; a maintainer
agreed (and asked for the dtype too), fixed by pytorch/audio#242. Stand-in: that `istft`
(reduced, `torch.fft.irfft` for `torch.irfft`), with meta as the accelerator.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch

def istft(stft_matrix, n_fft, hop_length=None, win_length=None, window=None):
    """torchaudio.functional.istft before pytorch/audio#242 (center=False, onesided, reduced)."""
    if stft_matrix.dim() == 3:
        stft_matrix = stft_matrix.unsqueeze(0)       # (channel, fft_size, n_frames, 2)
    device = stft_matrix.device
    if win_length is None:
        win_length = n_fft
    if hop_length is None:
        hop_length = int(win_length // 4)
    if window is None:
        window = torch.ones(win_length, requires_grad=False)

    stft_matrix = stft_matrix.transpose(1, 2)        # (channel, n_frames, fft_size, 2)
    stft_matrix = torch.fft.irfft(torch.view_as_complex(stft_matrix.contiguous()), n=n_fft)
    n_frames = stft_matrix.size(1)
    ytmp = stft_matrix * window.view(1, 1, n_fft)    # (channel, n_frames, n_fft)
    ytmp = ytmp.transpose(1, 2)
    eye = torch.eye(n_fft, requires_grad=False, device=device).unsqueeze(1)
    y = torch.nn.functional.conv_transpose1d(ytmp, eye, stride=hop_length, padding=0)
    window_sq = window.pow(2).view(n_fft, 1).repeat((1, n_frames)).unsqueeze(0)
    window_envelop = torch.nn.functional.conv_transpose1d(window_sq, eye, stride=hop_length, padding=0)
    return (y / window_envelop.clamp(min=1e-11)).squeeze(1)

device = "meta"                                         # "cuda"
estimated_stft = torch.randn(1, 257, 30, 2).to(device)  # the enhancement model's output
'''
CELL = '''
estimated_wave = istft(estimated_stft, n_fft=512, hop_length=128)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["window"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "window = torch.ones(win_length, requires_grad=False)",
    "window = torch.ones(win_length, requires_grad=False, device=device)",
)
CLEAN = False
