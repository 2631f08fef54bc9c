"""Look-alike: HiFi-GAN's `mel_spectrogram` keeps CPU and GPU windows/filterbanks side by side in module-level dicts.

Source: https://github.com/jik876/hifi-gan/blob/master/meldataset.py (used by train.py)
`mel_basis` and `hann_window` are global dicts keyed by `str(fmax)+'_'+str(y.device)` and
`str(y.device)`: the dataset computes target mels of CPU audio (CPU entries), the training loop
computes the mel of the generator's GPU output (GPU entries) and moves the target mel with
`y_mel.to(device)`. The dicts hold CPU tensors while the cell runs on the GPU, by design.
Stand-in: librosa's mel filterbank as a fixed random non-negative matrix; the `print` range checks
on `torch.min(y)`/`torch.max(y)` are left out.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F

def librosa_mel_fn(sampling_rate, n_fft, num_mels, fmin, fmax):
    rng = np.random.RandomState(0)                      # librosa.filters.mel stand-in
    return rng.rand(num_mels, n_fft // 2 + 1).astype(np.float32)

def dynamic_range_compression_torch(x, C=1, clip_val=1e-5):
    return torch.log(torch.clamp(x, min=clip_val) * C)

def spectral_normalize_torch(magnitudes):
    return dynamic_range_compression_torch(magnitudes)

mel_basis = {}
hann_window = {}

def mel_spectrogram(y, n_fft, num_mels, sampling_rate, hop_size, win_size, fmin, fmax, center=False):
    global mel_basis, hann_window
    if fmax not in mel_basis:
        mel = librosa_mel_fn(sampling_rate, n_fft, num_mels, fmin, fmax)
        mel_basis[str(fmax)+'_'+str(y.device)] = torch.from_numpy(mel).float().to(y.device)
        hann_window[str(y.device)] = torch.hann_window(win_size).to(y.device)

    y = torch.nn.functional.pad(y.unsqueeze(1), (int((n_fft-hop_size)/2), int((n_fft-hop_size)/2)), mode='reflect')
    y = y.squeeze(1)

    spec = torch.stft(y, n_fft, hop_length=hop_size, win_length=win_size, window=hann_window[str(y.device)],
                      center=center, pad_mode='reflect', normalized=False, onesided=True, return_complex=True)
    spec = torch.view_as_real(spec)
    spec = torch.sqrt(spec.pow(2).sum(-1)+(1e-9))
    spec = torch.matmul(mel_basis[str(fmax)+'_'+str(y.device)], spec)
    spec = spectral_normalize_torch(spec)
    return spec

h = dict(n_fft=1024, num_mels=80, sampling_rate=22050, hop_size=256, win_size=1024, fmin=0, fmax=8000)
device = torch.device('cuda:0')

# MelDataset.__getitem__: the target mel of the CPU clip (fills the CPU entries)
audio = torch.rand(1, 8192) * 2 - 1
y_mel = mel_spectrogram(audio, h["n_fft"], h["num_mels"], h["sampling_rate"], h["hop_size"],
                        h["win_size"], h["fmin"], h["fmax"], center=False)

generator = torch.nn.Conv1d(80, 1, 7, padding=3).to(device)   # stands for Generator(h)
x = torch.randn(1, 80, 8192, device=device)
'''
CELL = '''
y_mel = y_mel.to(device, non_blocking=True)
y_g_hat = generator(x)
y_g_hat_mel = mel_spectrogram(y_g_hat.squeeze(1), h["n_fft"], h["num_mels"], h["sampling_rate"],
                              h["hop_size"], h["win_size"], h["fmin"], h["fmax"])
loss_mel = F.l1_loss(y_mel, y_g_hat_mel) * 45
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
