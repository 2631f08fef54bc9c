"""fast.ai course-v3 `audio.ipynb`: `Spectrogrammer` builds a torchaudio `MelSpectrogram` on every call (CPU window buffer) and applies it to signals that `ToCuda` already put on the GPU.

Source: https://github.com/fastai/course-v3/issues/510
"RuntimeError: expected device cuda:0 but got device cpu in audio.ipynb. This error occurs at
`show_spectro(ll.train[4][0])`. If ll is on CPU instead of a CUDA device it works fine." The item
transforms are `[ToCuda(), shifter, pad_3sec, speccer, masker]`; `Spectrogrammer.__call__` does
`transforms.MelSpectrogram(sr, ...)(sig)`, a fresh module whose STFT window (a registered buffer)
is created on the CPU while `sig` is on the GPU. Fix: build the transform on the signal's device
(`.to(sig.device)`), or run `ToCuda` after the spectrogram. Reduced: torchaudio's MelSpectrogram /
SpectrogramToDB / PadTrim and the course's ItemList/label_by_func by minimal stand-ins with the
same buffers, random 1 s clips instead of the wav files; the cell indexes `ll.train[4][0]` without
plotting it. The "GPU" is meta (`ToCuda` moves to meta).
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import math, random
import torch
import torch.nn as nn
import torch.nn.functional as F

class transforms:                                    # torchaudio.transforms stand-ins (0.2-era API)
    class MelSpectrogram(nn.Module):
        def __init__(self, sample_rate=16000, n_fft=400, win_length=None, hop_length=None, f_min=0.,
                     f_max=None, pad=0, n_mels=128):
            super().__init__()
            self.n_fft = n_fft
            self.win_length = win_length if win_length is not None else n_fft
            self.hop_length = hop_length if hop_length is not None else self.win_length // 2
            self.register_buffer('window', torch.hann_window(self.win_length))
            self.register_buffer('fb', torch.rand(n_fft // 2 + 1, n_mels))
        def forward(self, waveform):
            spec = torch.stft(waveform, self.n_fft, self.hop_length, self.win_length, self.window,
                              return_complex=True).abs().pow(2.0)
            return torch.matmul(spec.transpose(-1, -2), self.fb).transpose(-1, -2)
    class SpectrogramToDB(nn.Module):
        def __init__(self, top_db=None):
            super().__init__()
            self.top_db = top_db
        def forward(self, spec):
            return 10.0 * torch.log10(torch.clamp(spec, min=1e-10))
    class PadTrim(nn.Module):
        def __init__(self, max_len):
            super().__init__()
            self.max_len = max_len
        def forward(self, sig):
            n = sig.size(1)
            return F.pad(sig, (0, self.max_len - n)) if n < self.max_len else sig.narrow(1, 0, self.max_len)

class Transform(): _order = 0

def compose(x, funcs):
    for f in sorted(funcs, key=lambda o: getattr(o, '_order', 0)):
        x = f(x)
    return x

class ItemList:                                      # the course's ItemList / AudioList
    def __init__(self, items, tfms=None):
        self.items, self.tfms = items, tfms or []
    def get(self, item):
        return item                                  # torchaudio.load(fn): (sig, sr)
    def __getitem__(self, idx):
        return compose(self.get(self.items[idx]), self.tfms)

class LabeledData:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __getitem__(self, idx):
        return self.x[idx], self.y[idx]

class SplitData:
    def __init__(self, train, valid):
        self.train, self.valid = train, valid

class ToCuda(Transform):
    _order=10
    def __call__(self, ad):
        sig,sr = ad
        return (sig.to('meta'), sr)                  # sig.cuda()

class PadOrTrim(Transform):
    _order=11
    def __init__(self,msecs): self.msecs = msecs
    def __call__(self, ad):
        sig,sr = ad
        mx = sr//1000 * self.msecs
        return (transforms.PadTrim(mx)(sig), sr)

class SignalShift(Transform):
    _order=20
    def __init__(self, max_shift_pct=.6): self.max_shift_pct = max_shift_pct
    def __call__(self, ad):
        sig,sr = ad
        roll_by = int(random.random()*self.max_shift_pct*len(sig[0]))
        return (sig.roll(roll_by), sr)

class Spectrogrammer(Transform):
    _order=90
    def __init__(self, to_mel=True, to_db=True, n_fft=400, ws=None, hop=None,
                 f_min=0.0, f_max=None, pad=0, n_mels=128, top_db=None, normalize=False):
        self.to_mel, self.to_db, self.n_fft, self.ws, self.hop, self.f_min, self.f_max, \\
        self.pad, self.n_mels, self.top_db, self.normalize = to_mel, to_db, n_fft, \\
        ws, hop, f_min, f_max, pad, n_mels, top_db, normalize

    def __call__(self, ad):
        sig,sr = ad
        spec = transforms.MelSpectrogram(sr, self.n_fft, self.ws, self.hop, self.f_min,
                                         self.f_max, self.pad, self.n_mels)(sig)
        if self.to_db:
            spec = transforms.SpectrogramToDB(top_db=self.top_db)(spec)
        spec = spec.permute(0,2,1)
        return spec

class SpecAugment(Transform):
    _order=99
    def __init__(self, max_mask_pct=0.2, freq_masks=1, time_masks=1, replace_with_zero=False):
        self.max_mask_pct, self.freq_masks, self.time_masks, self.replace_with_zero = \\
        max_mask_pct, freq_masks, time_masks, replace_with_zero

    def __call__(self, spec):
        _, n_mels, n_steps = spec.shape
        F_ = math.ceil(n_mels * self.max_mask_pct)
        T = math.ceil(n_steps * self.max_mask_pct)
        fill = 0 if self.replace_with_zero else spec.mean()
        for i in range(0, self.freq_masks):
            f = random.randint(0, F_)
            f0 = random.randint(0, n_mels-f)
            spec[0][f0:f0+f] = fill
        for i in range(0, self.time_masks):
            t = random.randint(0, T)
            t0 = random.randint(0, n_steps-t)
            spec[0][:,t0:t0+t] = fill
        return spec

random.seed(0)
torch.manual_seed(0)
clips = [(torch.randn(1, 16000), 16000) for _ in range(10)]   # ST-AEDS speaker wav files
labels = [i % 3 for i in range(10)]

pad_3sec = PadOrTrim(3000)
shifter = SignalShift()
speccer = Spectrogrammer(n_fft=1024, n_mels=64, top_db=80)
masker = SpecAugment(freq_masks=2, time_masks=2, max_mask_pct=0.1)
tfms = [ToCuda(), shifter, pad_3sec, speccer, masker]
al = ItemList(clips, tfms=tfms)
ll = SplitData(LabeledData(al, labels), None)      # label_by_func(sd, speaker_labeler, ...)
'''
CELL = '''
x = ll.train[4][0]                                   # show_spectro(ll.train[4][0])
'''
EXPECT_ERROR = ("stft input and window must be on the same device", "is not on the expected device",
                "Expected all tensors to be on the same device")
CULPRITS = ["speccer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("                                         self.f_max, self.pad, self.n_mels)(sig)\n",
                  "                                         self.f_max, self.pad, self.n_mels).to(sig.device)(sig)\n")
CLEAN = False
