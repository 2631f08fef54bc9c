"""SpeechBrain `SepformerSeparation.separate_file` on a GPU: the `Resample` transform built for a 16 kHz file stays on the CPU.

Source: https://github.com/speechbrain/speechbrain/pull/1085
`separate_file` loads the mixture, moves it to `self.device` and, when the file's rate differs from
the model's (a 16 kHz file for the 8 kHz `sepformer-wsj02mix`), builds
`tf = torchaudio.transforms.Resample(orig_freq=fs_file, new_freq=fs_model)` and applies it to the
GPU batch. Since torchaudio 0.9 `Resample` precomputes its sinc kernel in `__init__`, so a transform
created on the CPU meets a CUDA waveform. The maintainer's fix (PR #1085, "Fixed device problem in
separation resampling", commit 6f87d6e): `Resample(...).to(self.device)`.
Stand-ins: `Resample` with a precomputed kernel buffer whose forward is the strided correlation
written as unfold + matmul (torchaudio uses conv1d, whose device check the fake-CUDA simulation
lacks); a tiny encoder / masknet / decoder in place of the SepFormer; `torchaudio.load` returns a
random stereo 16 kHz mixture; `sep_h[i]` / slicing are written `unbind` / `narrow`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch
from torch import nn
import torch.nn.functional as F

class Resample(nn.Module):
    """torchaudio.transforms.Resample (stand-in): kernel computed once in __init__."""
    def __init__(self, orig_freq=16000, new_freq=16000, lowpass_filter_width=6):
        super().__init__()
        gcd = math.gcd(int(orig_freq), int(new_freq))
        self.orig_freq, self.new_freq = int(orig_freq) // gcd, int(new_freq) // gcd
        width = lowpass_filter_width * self.orig_freq
        t = torch.arange(-width, width + self.orig_freq, dtype=torch.float32) / self.orig_freq
        kernel = torch.sinc(t * min(self.orig_freq, self.new_freq) / self.orig_freq)
        self.register_buffer("kernel", (kernel / kernel.sum()).unsqueeze(0), persistent=False)

    def forward(self, waveform):
        frames = waveform.unfold(-1, self.kernel.shape[-1], self.orig_freq)   # conv1d(stride=orig)
        return (frames @ self.kernel.t()).flatten(-2)

def load(path):                                  # torchaudio.load (stand-in)
    return torch.randn(2, 32000), 16000

class Pretrained(nn.Module):
    """speechbrain.pretrained.Pretrained (stand-in): modules + hparams + run_opts device."""
    def __init__(self, modules, hparams, run_opts=None):
        super().__init__()
        self.mods = nn.ModuleDict(modules)
        self.hparams = hparams
        self.device = (run_opts or {}).get("device", "cpu")
        self.mods.to(self.device)

class HParams:
    sample_rate = 8000
    num_spks = 2

class SepformerSeparation(Pretrained):
    def separate_batch(self, mix):
        mix = mix.to(self.device)
        mix_w = self.mods.encoder(mix.unsqueeze(1))
        est_mask = self.mods.masknet(mix_w).view(self.hparams.num_spks, *mix_w.shape)
        mix_w = torch.stack([mix_w] * self.hparams.num_spks)
        sep_h = mix_w * est_mask
        est_source = torch.cat(
            [self.mods.decoder(h).squeeze(1).unsqueeze(-1) for h in sep_h.unbind(0)],
            dim=-1,
        )
        T_origin = mix.size(1)
        T_est = est_source.size(1)
        if T_origin > T_est:
            est_source = F.pad(est_source, (0, 0, 0, T_origin - T_est))
        else:
            est_source = est_source.narrow(1, 0, T_origin)
        return est_source

    def separate_file(self, path, savedir="."):
        batch, fs_file = load(path)
        batch = batch.to(self.device)
        fs_model = self.hparams.sample_rate

        # resample the data if needed
        if fs_file != fs_model:
            print("Resampling the audio from {} Hz to {} Hz".format(fs_file, fs_model))
            tf = Resample(
                orig_freq=fs_file, new_freq=fs_model
            )
            batch = batch.mean(dim=0, keepdim=True)
            batch = tf(batch)

        est_sources = self.separate_batch(batch)
        est_sources = est_sources / est_sources.max(dim=1, keepdim=True)[0]
        return est_sources

modules = {
    "encoder": nn.Conv1d(1, 16, 16, stride=8),
    "masknet": nn.Sequential(nn.Conv1d(16, 2 * 16, 1), nn.ReLU()),
    "decoder": nn.ConvTranspose1d(16, 1, 16, stride=8),
}
model = SepformerSeparation(modules, HParams(), run_opts={"device": "cuda:0"})
'''
CELL = '''
est_sources = model.separate_file(path="speechbrain/sepformer-wsj02mix/test_mixture.wav")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''            tf = Resample(
                orig_freq=fs_file, new_freq=fs_model
            )''', '''            tf = Resample(
                orig_freq=fs_file, new_freq=fs_model
            ).to(self.device)''')
CLEAN = False
