"""Look-alike: HiFi-GAN's `mel_spectrogram` caches filterbank and window per device; CPU and GPU entries coexist.

Source: https://github.com/yl4579/StarGANv2-VC/issues/59
The meldataset.py the author posted for fine-tuning HiFi-GAN keeps module-level dicts
`mel_basis[str(fmax) + '_' + str(y.device)]` and `hann_window[str(y.device)]`: the dataset computes
target mels of CPU audio, the training loop computes mels of the generator's GPU output, and each
call picks the entry of its own device. Tensors of both devices side by side in one dict is the
design; every op uses the matching entry. Stand-in: librosa's mel filter by a random non-negative
matrix; "meta" plays the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch

mel_basis = {}
hann_window = {}

def librosa_mel_fn(sr, n_fft, n_mels, fmin, fmax):
    rng = np.random.default_rng(0)
    return np.abs(rng.standard_normal((n_mels, n_fft // 2 + 1))).astype(np.float32)

def dynamic_range_compression_torch(x, C=1, clip_val=1e-5):
    return torch.log(torch.clamp(x, min=clip_val) * C)

def mel_spectrogram(y, n_fft, num_mels, sampling_rate, hop_size, win_size, fmin, fmax, center=False):
    global mel_basis, hann_window
    if str(fmax) + "_" + str(y.device) not in mel_basis:
        mel = librosa_mel_fn(sampling_rate, n_fft, num_mels, fmin, fmax)
        mel_basis[str(fmax) + "_" + str(y.device)] = torch.from_numpy(mel).float().to(y.device)
        hann_window[str(y.device)] = torch.hann_window(win_size).to(y.device)
    y = torch.nn.functional.pad(y.unsqueeze(1), (int((n_fft - hop_size) / 2), int((n_fft - hop_size) / 2)), mode="reflect")
    y = y.squeeze(1)
    spec = torch.stft(y, n_fft, hop_length=hop_size, win_length=win_size, window=hann_window[str(y.device)],
                      center=center, pad_mode="reflect", normalized=False, onesided=True, return_complex=True)
    spec = torch.sqrt(spec.abs().pow(2) + 1e-9)
    spec = torch.matmul(mel_basis[str(fmax) + "_" + str(y.device)], spec)
    return dynamic_range_compression_torch(spec)

h = dict(n_fft=1024, num_mels=80, sampling_rate=22050, hop_size=256, win_size=1024, fmin=0, fmax=8000)
device = torch.device("meta")
generator = torch.nn.Conv1d(80, 1, 7, padding=3).to(device)
audio = torch.randn(1, 8192)                        # MelDataset.__getitem__: CPU audio segment
mel = mel_spectrogram(audio, **h)                   # target mel, computed in the dataset
'''
CELL = '''
x = mel.to(device)
y = audio.to(device)
y_g_hat = torch.randn(1, 1, 8192, device=device)    # generator(x) at segment length
y_mel = mel_spectrogram(y, **h)
y_g_hat_mel = mel_spectrogram(y_g_hat.squeeze(1), **h)
loss_mel = torch.nn.functional.l1_loss(y_mel, y_g_hat_mel) * 45
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
