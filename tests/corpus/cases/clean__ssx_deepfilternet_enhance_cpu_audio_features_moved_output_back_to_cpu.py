"""DeepFilterNet `enhance()` with a GPU model and CPU audio: features are moved in `df_features`, the output comes back with `.cpu()`.

Source: https://github.com/Rikorose/DeepFilterNet/blob/main/DeepFilterNet/df/enhance.py
The README usage is `model, df_state, _ = init_df()` (model on `get_device()`, CUDA when available),
`audio, _ = load_audio(path, sr=df_state.sr())` (a CPU tensor) and `enhance(model, df_state, audio)`.
`df_features(audio, df_state, nb_df, device=get_device())` analyses on the CPU and moves `spec`,
`erb_feat` and `spec_feat` to the model's device; `enhance` takes the model output back with
`model(spec.clone(), erb_feat, spec_feat)[0].cpu()` and synthesises on the CPU. Look-alike: a CPU
waveform passed to a CUDA model; it runs.
Stand-ins: the Rust/numpy `DF` state replaced by torch.stft / irfft analysis-synthesis, a tiny
masking model in place of DeepFilterNet3; `atten_lim_db` left at None.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

def get_device():
    return torch.device("cuda:0")

def as_complex(x):
    if torch.is_complex(x):
        return x
    return torch.view_as_complex(x.contiguous())

def as_real(x):
    return torch.view_as_real(x) if torch.is_complex(x) else x

class DF:
    """libdf.DF (stand-in)."""
    def __init__(self, sr=48000, fft_size=960, hop_size=480, nb_bands=32):
        self._sr, self._fft, self._hop, self.nb_bands = sr, fft_size, hop_size, nb_bands
        self.window = torch.hann_window(fft_size)

    def sr(self):
        return self._sr

    def analysis(self, audio):
        return torch.stft(audio, self._fft, self._hop, window=self.window,
                          return_complex=True).transpose(1, 2)

    def synthesis(self, spec):
        frames = torch.fft.irfft(spec, n=self._fft) * self.window
        return frames[..., : self._hop].reshape(spec.shape[0], -1)

def df_features(audio, df, nb_df, device=None):
    spec = df.analysis(audio)
    erb_feat = spec.abs()[..., : df.nb_bands].log1p().unsqueeze(1)
    spec_feat = as_real(spec[..., :nb_df]).unsqueeze(1)
    spec = as_real(spec).unsqueeze(1)
    if device is not None:
        spec = spec.to(device)
        erb_feat = erb_feat.to(device)
        spec_feat = spec_feat.to(device)
    return spec, erb_feat, spec_feat

class DfNet(nn.Module):
    def __init__(self, nb_erb=32, n_freqs=481, nb_df=96):
        super().__init__()
        self.nb_df = nb_df
        self.erb_net = nn.Linear(nb_erb, n_freqs)

    def forward(self, spec, feat_erb, feat_spec):
        gains = torch.sigmoid(self.erb_net(feat_erb))
        return (spec * gains.unsqueeze(-1), gains, None, None)

@torch.no_grad()
def enhance(model, df_state, audio, pad=True, atten_lim_db=None):
    model.eval()
    orig_len = audio.shape[-1]
    n_fft, hop = 0, 0
    if pad:
        n_fft, hop = df_state._fft, df_state._hop
        audio = F.pad(audio, (0, n_fft))
    nb_df = getattr(model, "nb_df", getattr(model, "df_bins", 96))
    spec, erb_feat, spec_feat = df_features(audio, df_state, nb_df, device=get_device())
    enhanced = model(spec.clone(), erb_feat, spec_feat)[0].cpu()
    enhanced = as_complex(enhanced.squeeze(1))
    if atten_lim_db is not None and abs(atten_lim_db) > 0:
        lim = 10 ** (-abs(atten_lim_db) / 20)
        enhanced = as_complex(spec.squeeze(1).cpu()) * lim + enhanced * (1 - lim)
    audio = df_state.synthesis(enhanced)
    if pad:
        d = n_fft - hop
        audio = audio[:, d : orig_len + d]
    return audio

model = DfNet().to(get_device())                 # init_df()
df_state = DF()
audio = torch.randn(1, 48000)                     # load_audio(path, sr=df_state.sr())
'''
CELL = '''
enhanced = enhance(model, df_state, audio)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
