"""auraloss MultiResolutionSTFTLoss moved with `.cuda()`: each resolution's window stays on the CPU.

Source: https://github.com/csteinmetz1/auraloss/issues/17
"CUDA not working?": "I have tensors on cuda and do model.cuda. However, I get the following
error" inside `MultiResolutionSTFTLoss.forward` -> `STFTLoss` -> `torch.stft`. The STFT losses keep
their window as a plain attribute (`self.window = getattr(torch, window)(win_length)`), so
`Module.cuda()` never moves it; each sub-loss's window must follow the signal. Stand-in: the
STFTLoss/MultiResolutionSTFTLoss pair reduced to the spectral-convergence and log-magnitude terms.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

class STFTLoss(nn.Module):
    def __init__(self, fft_size=1024, hop_size=256, win_length=1024, window="hann_window", eps=1e-8):
        super().__init__()
        self.fft_size, self.hop_size, self.win_length, self.eps = fft_size, hop_size, win_length, eps
        self.window = getattr(torch, window)(win_length)

    def stft(self, x):
        x_stft = torch.stft(x, self.fft_size, self.hop_size, self.win_length, self.window,
                            return_complex=True)
        return torch.sqrt(torch.clamp(x_stft.real ** 2 + x_stft.imag ** 2, min=self.eps))

    def forward(self, x, y):
        x_mag, y_mag = self.stft(x.view(-1, x.size(-1))), self.stft(y.view(-1, y.size(-1)))
        sc = torch.norm(y_mag - x_mag, p="fro") / torch.norm(y_mag, p="fro")
        log_mag = torch.nn.functional.l1_loss(torch.log(x_mag), torch.log(y_mag))
        return sc + log_mag

class MultiResolutionSTFTLoss(nn.Module):
    def __init__(self, fft_sizes=(512, 256), hop_sizes=(128, 64), win_lengths=(512, 256),
                 window="hamming_window"):
        super().__init__()
        self.stft_losses = nn.ModuleList(
            [STFTLoss(fs, ss, wl, window) for fs, ss, wl in zip(fft_sizes, hop_sizes, win_lengths)])

    def forward(self, x, y):
        mrstft_loss = 0.0
        for f in self.stft_losses:
            mrstft_loss += f(x, y)
        return mrstft_loss / len(self.stft_losses)

device = torch.device("cuda:0")
model = MultiResolutionSTFTLoss()
model.to(device)                                  # model.cuda()
x1 = torch.randn(1, 1, 4096).to(device)
x = torch.randn(1, 1, 4096).to(device)
'''
CELL = '''
z = model(x1.view(1, 1, -1), x)
'''
EXPECT_ERROR = ("stft input and window must be on the same device",
                "Expected all tensors to be on the same device")
CULPRITS = ["model.stft_losses[0].window", "model.stft_losses[1].window"]
FIX = "namespace"
REFERENCE_FIX = '''
for f in model.stft_losses:
    f.window = f.window.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
