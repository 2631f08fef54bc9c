"""SpeechBrain enhancement template on a GPU: `stoi_loss` builds its 16k->10k `Resample` on the CPU for every call.

Source: https://github.com/speechbrain/speechbrain/issues/910
Training `templates/enhancement` (`python train.py train.yaml`) died at validation in
`compute_objectives` -> `self.stoi_metric.append(...)` -> `speechbrain/nnet/loss/stoi_loss.py`, line
`y_true, y_pred = resampler(y_true), resampler(y_pred)` with "Input type (torch.cuda.FloatTensor) and
weight type (torch.FloatTensor) should be the same". `stoi_loss` creates
`resampler = torchaudio.transforms.Resample(fs, 10000)`, whose kernel is made on the CPU, and applies
it to the GPU predictions. The maintainers fixed it ten days later (commit 8070883, "fix template enh
(device mismatch)"): `Resample(fs, 10000).to(y_pred_batch.device)`.
Stand-ins: `Resample` with a precomputed kernel whose forward is unfold + matmul instead of conv1d
(the fake-CUDA simulation does not check conv devices, so the simulated error reads "Expected all
tensors to be on the same device"); `stoi_loss` keeps the resampler line and replaces the octave-band
STOI computation with a short-time correlation; `lens` trimming is omitted (no indexing of fake CUDA
tensors); `MetricStats` reduced to `append`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch
from torch import nn

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
        frames = waveform.unfold(-1, self.kernel.shape[-1], self.orig_freq)
        return (frames @ self.kernel.t()).flatten(-2)

def stoi_loss(y_pred_batch, y_true_batch, lens, reduction="mean"):
    y_pred_batch = torch.squeeze(y_pred_batch, dim=-1)
    y_true_batch = torch.squeeze(y_true_batch, dim=-1)
    batch_size = y_pred_batch.shape[0]
    fs = 16000  # Sampling rate
    resampler = Resample(fs, 10000)
    D = []
    for y_pred, y_true in zip(y_pred_batch.unbind(0), y_true_batch.unbind(0)):
        y_true, y_pred = resampler(y_true), resampler(y_pred)
        x = y_true.unfold(-1, 256, 128)
        y = y_pred.unfold(-1, 256, 128)
        x = x - x.mean(dim=-1, keepdim=True)
        y = y - y.mean(dim=-1, keepdim=True)
        d = (x * y).sum(-1) / (x.norm(dim=-1) * y.norm(dim=-1) + 1e-8)
        D.append(-torch.mean(d))
    D = torch.stack(D)
    if reduction == "mean":
        return D.mean()
    return D

class MetricStats:
    """speechbrain.utils.metric_stats.MetricStats (reduced)."""
    def __init__(self, metric, n_jobs=1, batch_eval=True):
        self.metric = metric
        self.scores, self.ids = [], []

    def append(self, ids, *args, **kwargs):
        self.ids.extend(ids)
        scores = self.metric(*args, **kwargs).detach()
        self.scores.extend(scores)

class EnhanceModel(nn.Module):
    """the template's masking model on spectral features (stand-in)."""
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(1, 8, 9, padding=4), nn.ReLU(), nn.Conv1d(8, 1, 9, padding=4))

    def forward(self, wav):
        return wav * torch.sigmoid(self.net(wav.unsqueeze(1)).squeeze(1))

device = "cuda:0"                                # run_opts["device"]
model = EnhanceModel().to(device)
stoi_metric = MetricStats(metric=stoi_loss)
ids = ["p232_001", "p232_002"]
noisy_wavs = torch.randn(2, 16000).to(device)    # batch.noisy_sig on the GPU
clean_wavs = torch.randn(2, 16000).to(device)
lens = torch.ones(2).to(device)
'''
CELL = '''
predict_wavs = model(noisy_wavs)
stoi_metric.append(ids, predict_wavs, clean_wavs, lens, reduction="batch")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["stoi_loss"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("resampler = Resample(fs, 10000)",
                  "resampler = Resample(fs, 10000).to(y_pred_batch.device)")
CLEAN = False
