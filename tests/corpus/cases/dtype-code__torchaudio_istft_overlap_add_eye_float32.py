"""torchaudio 0.3's `istft` on a float64 STFT: the overlap-add identity kernel is made with the default dtype.

Source: https://github.com/pytorch/audio/pull/286
"istft: torch.eye dtype conforms to stft_matrix": in `torchaudio.functional.istft`,
`eye = torch.eye(n_fft, ...)` has no dtype, so "when stft_matrix is torch.float64, eye still
defaults to torch.float32 and causes a RuntimeError: expected scalar type Double but found Float"
in the `conv_transpose1d` overlap-add. A maintainer reproduced it with
`torchaudio.functional.istft(torch.ones((2, 257, 1000, 2), dtype=torch.float64), 512)` on the 0.3.0
release (master had fixed it in pytorch/audio#135). Stand-in: that `istft` (reduced; `torch.irfft`
written with `torch.fft.irfft`).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch

def istft(stft_matrix, n_fft, hop_length=None, win_length=None, window=None):
    """torchaudio.functional.istft, torchaudio 0.3.0 (center=False, onesided, reduced)."""
    if stft_matrix.dim() == 3:
        stft_matrix = stft_matrix.unsqueeze(0)       # (channel, fft_size, n_frames, 2)
    device, dtype = stft_matrix.device, stft_matrix.dtype
    if win_length is None:
        win_length = n_fft
    if hop_length is None:
        hop_length = int(win_length // 4)
    if window is None:
        window = torch.ones(win_length, dtype=dtype)

    stft_matrix = stft_matrix.transpose(1, 2)        # (channel, n_frames, fft_size, 2)
    stft_matrix = torch.fft.irfft(torch.view_as_complex(stft_matrix.contiguous()), n=n_fft)
    n_frames = stft_matrix.size(1)
    ytmp = stft_matrix * window.view(1, 1, n_fft)    # (channel, n_frames, n_fft)
    ytmp = ytmp.transpose(1, 2)                      # (channel, n_fft, n_frames)
    eye = torch.eye(n_fft, requires_grad=False, device=device).unsqueeze(1)   # (n_fft, 1, n_fft)
    # overlap-add: the i'th frame of ytmp is added starting at i * hop_length
    y = torch.nn.functional.conv_transpose1d(ytmp, eye, stride=hop_length, padding=0)
    window_sq = window.pow(2).view(n_fft, 1).repeat((1, n_frames)).unsqueeze(0)
    window_envelop = torch.nn.functional.conv_transpose1d(window_sq, eye, stride=hop_length, padding=0)
    return (y / window_envelop.clamp(min=1e-11)).squeeze(1)

stft = torch.ones((2, 257, 40, 2), dtype=torch.float64)
'''
CELL = '''
y = istft(stft, 512)
'''
EXPECT_ERROR = "expected scalar type Double but found Float"
CULPRITS = ["eye"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "eye = torch.eye(n_fft, requires_grad=False, device=device).unsqueeze(1)",
    "eye = torch.eye(n_fft, requires_grad=False, device=device, dtype=dtype).unsqueeze(1)",
)
CLEAN = False
