"""DeepFilterNet `enhance(..., atten_lim_db=...)` on a GPU mixes the noisy spectrum left on cuda with the enhanced one moved to the CPU.

Source: https://github.com/Rikorose/DeepFilterNet/issues/201
`deepFilter --atten-lim` worked on Colab (CPU) but failed on an A100 in `df/enhance.py`, line
`enhanced = as_complex(spec.squeeze(1)) * lim + enhanced * (1 - lim)` with "Expected all tensors to
be on the same device, but found at least two devices, cuda:0 and cpu!". `df_features(...,
device=get_device())` puts `spec` on the GPU, the model output is taken back with `.cpu()`, and the
attenuation-limit mix combines the two. The maintainer fixed it on main (commit 23a5b5e "Fix device
w. attenuation limit"): `as_complex(spec.squeeze(1).cpu())`.
Stand-ins: `df_features` / `DF` analysis-synthesis with torch.stft/irfft instead of the Rust pyDF
(numpy) state, and a tiny masking model in place of DeepFilterNet2; `enhance` is the library's
function, reduced to the lines that matter.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

def get_device():                               # df.utils.get_device(): cuda if available
    return torch.device("cuda:0")

def as_complex(x):                              # df.utils.as_complex
    if torch.is_complex(x):
        return x
    return torch.view_as_complex(x.contiguous())

def as_real(x):
    return torch.view_as_real(x) if torch.is_complex(x) else x

class DF:
    """libdf.DF (stand-in): STFT analysis / synthesis state (the real one is Rust + numpy)."""
    def __init__(self, sr=48000, fft_size=960, hop_size=480, nb_bands=32):
        self.sr, self._fft, self._hop, self.nb_bands = sr, fft_size, hop_size, nb_bands
        self.window = torch.hann_window(fft_size)

    def fft_size(self):
        return self._fft

    def hop_size(self):
        return self._hop

    def analysis(self, audio):                  # [C, T] -> [C, T', F] complex
        return torch.stft(audio, self._fft, self._hop, window=self.window,
                          return_complex=True).transpose(1, 2)

    def synthesis(self, spec):                  # [C, T', F] complex -> [C, T] (crude overlap-add)
        frames = torch.fft.irfft(spec, n=self._fft) * self.window
        return frames[..., : self._hop].reshape(spec.shape[0], -1)

def df_features(audio, df, nb_df, device=None):
    spec = df.analysis(audio)                   # [C, T', F]
    erb_feat = spec.abs()[..., : df.nb_bands].log1p().unsqueeze(1)
    spec_feat = as_real(spec[..., :nb_df]).unsqueeze(1)
    spec = as_real(spec).unsqueeze(1)           # [C, 1, T', F, 2]
    if device is not None:
        spec = spec.to(device)
        erb_feat = erb_feat.to(device)
        spec_feat = spec_feat.to(device)
    return spec, erb_feat, spec_feat

class DfNet(nn.Module):
    """DeepFilterNet2 (stand-in): predicts a real gain per bin and applies it to `spec`."""
    def __init__(self, nb_erb=32, n_freqs=481, nb_df=96):
        super().__init__()
        self.nb_df = nb_df
        self.erb_net = nn.Linear(nb_erb, n_freqs)

    def forward(self, spec, feat_erb, feat_spec):
        gains = torch.sigmoid(self.erb_net(feat_erb))            # [C, 1, T', F]
        return (spec * gains.unsqueeze(-1), gains, None, None)

@torch.no_grad()
def enhance(model, df_state, audio, pad=False, atten_lim_db=None):
    model.eval()
    orig_len = audio.shape[-1]
    n_fft, hop = 0, 0
    if pad:
        n_fft, hop = df_state.fft_size(), df_state.hop_size()
        audio = F.pad(audio, (0, n_fft))
    nb_df = getattr(model, "nb_df", getattr(model, "df_bins", 96))
    spec, erb_feat, spec_feat = df_features(audio, df_state, nb_df, device=get_device())
    enhanced = model(spec, erb_feat, spec_feat)[0].cpu()
    enhanced = as_complex(enhanced.squeeze(1))
    if atten_lim_db is not None and abs(atten_lim_db) > 0:
        lim = 10 ** (-abs(atten_lim_db) / 20)
        enhanced = as_complex(spec.squeeze(1)) * lim + enhanced * (1 - lim)
    audio = df_state.synthesis(enhanced)
    if pad:
        d = n_fft - hop
        audio = audio[:, d : orig_len + d]
    return audio

model = DfNet().to(get_device())                # init_df(): model on the GPU
df_state = DF(sr=48000, fft_size=960, hop_size=480, nb_bands=32)
audio = torch.randn(1, 48000)                   # load_audio(...): CPU waveform [C, T]
'''
CELL = '''
enhanced = enhance(model, df_state, audio, pad=False, atten_lim_db=12)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["enhance"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("enhanced = as_complex(spec.squeeze(1)) * lim",
                  "enhanced = as_complex(spec.squeeze(1).cpu()) * lim")
CLEAN = False
