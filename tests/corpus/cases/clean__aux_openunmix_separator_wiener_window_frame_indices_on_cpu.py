"""Look-alike: open-unmix `Separator.forward` indexes GPU spectrograms with a CPU `torch.arange` window of frames.

Source: https://github.com/sigsep/open-unmix-pytorch/blob/master/openunmix/model.py (`Separator.forward`, Wiener step)
After the target models run on the device, the Wiener step walks over the frames in windows:
`cur_frame = torch.arange(pos, min(nb_frames, pos + wiener_win_len))` is made on the CPU (its last
value is read back with `int(cur_frame[-1])`) and used to index and assign the device tensors
`spectrograms`, `mix_stft` and `targets_stft`. CPU index tensors are accepted for indexing tensors on
another device, so this is correct. Stand-ins: a reduced `Separator` (STFT as a plain tensor input, a
softmask `wiener`), meta as the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def wiener(targets_spectrograms, mix_stft, iterations=1, softmask=False, residual=False, eps=1e-10):
    """openunmix.filtering.wiener (softmask branch, stand-in)."""
    return mix_stft[..., None] * (
        targets_spectrograms / (eps + torch.sum(targets_spectrograms, dim=-1, keepdim=True))
    )[..., None, :]

class OpenUnmix(nn.Module):
    """A target model (stand-in): magnitude in, magnitude out."""
    def __init__(self, nb_bins=65):
        super().__init__()
        self.fc = nn.Linear(nb_bins, nb_bins)
    def forward(self, x):                                # (samples, channels, bins, frames)
        return torch.relu(self.fc(x.transpose(-1, -2))).transpose(-1, -2)

class Separator(nn.Module):
    def __init__(self, target_models, niter=1, softmask=True, residual=False, wiener_win_len=300):
        super().__init__()
        self.target_models = nn.ModuleDict(target_models)
        self.niter, self.softmask, self.residual = niter, softmask, residual
        self.wiener_win_len = wiener_win_len

    def forward(self, mix_stft):                         # (samples, channels, bins, frames, 2)
        nb_sources = len(self.target_models)
        nb_samples = mix_stft.shape[0]
        X = mix_stft.pow(2).sum(-1).sqrt()
        spectrograms = torch.zeros(X.shape + (nb_sources,), dtype=X.dtype, device=X.device)
        for j, (target_name, target_module) in enumerate(self.target_models.items()):
            spectrograms[..., j] = target_module(X)
        spectrograms = spectrograms.permute(0, 3, 2, 1, 4)
        mix_stft = mix_stft.permute(0, 3, 2, 1, 4)
        nb_frames = spectrograms.shape[1]
        targets_stft = torch.zeros(mix_stft.shape + (nb_sources,), dtype=mix_stft.dtype, device=mix_stft.device)
        for sample in range(nb_samples):
            pos = 0
            if self.wiener_win_len:
                wiener_win_len = self.wiener_win_len
            else:
                wiener_win_len = nb_frames
            while pos < nb_frames:
                cur_frame = torch.arange(pos, min(nb_frames, pos + wiener_win_len))
                pos = int(cur_frame[-1]) + 1
                targets_stft[sample, cur_frame] = wiener(
                    spectrograms[sample, cur_frame],
                    mix_stft[sample, cur_frame],
                    self.niter,
                    softmask=self.softmask,
                    residual=self.residual,
                )
        return targets_stft.permute(0, 5, 3, 2, 1, 4).contiguous()

device = "meta"                                          # "cuda"
separator = Separator({"vocals": OpenUnmix(), "accompaniment": OpenUnmix()}, wiener_win_len=16).to(device)
mix_stft = torch.randn(1, 2, 65, 40, 2).to(device)      # separator.stft(audio)
'''
CELL = '''
with torch.no_grad():
    estimates = separator(mix_stft)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
