"""Look-alike: SpeechBrain `EncoderClassifier.encode_batch` given a CPU waveform: it builds `wav_lens` on its device and moves both.

Source: https://github.com/speechbrain/speechbrain/blob/develop/speechbrain/inference/classifiers.py
`EncoderClassifier.encode_batch(wavs, wav_lens=None, normalize=False)`: "if wav_lens is None:
wav_lens = torch.ones(wavs.shape[0], device=self.device)"; "wavs, wav_lens = wavs.to(self.device),
wav_lens.to(self.device)"; then `compute_features`, `mean_var_norm(feats, wav_lens)` and
`embedding_model(feats, wav_lens)`. A `torchaudio.load` waveform left on the CPU beside a classifier
loaded with `run_opts={"device": "cuda:0"}` is therefore fine. Stand-in: Fbank (filterbank buffer),
sentence normalisation with relative lengths, ECAPA reduced to a linear layer + masked mean.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Fbank(nn.Module):
    def __init__(self, n_mels=24, win=400, hop=160):
        super().__init__()
        self.win, self.hop = win, hop
        self.register_buffer("fb", torch.rand(win // 2 + 1, n_mels))

    def forward(self, wavs):
        frames = wavs.unfold(-1, self.win, self.hop)
        return torch.matmul(torch.fft.rfft(frames).abs().pow(2), self.fb).clamp(min=1e-6).log()

class SentenceNorm(nn.Module):
    def forward(self, x, lengths):
        return x - x.mean(dim=1, keepdim=True)

class EncoderClassifier(nn.Module):
    def __init__(self, device="cpu"):
        super().__init__()
        self.device = device
        self.mods = nn.ModuleDict({"compute_features": Fbank(), "mean_var_norm": SentenceNorm(),
                                   "embedding_model": nn.Linear(24, 16)})
        self.mods.to(device)

    @classmethod
    def from_hparams(cls, source, run_opts=None):
        return cls(device=(run_opts or {}).get("device", "cpu"))

    def encode_batch(self, wavs, wav_lens=None, normalize=False):
        if len(wavs.shape) == 1:
            wavs = wavs.unsqueeze(0)
        if wav_lens is None:
            wav_lens = torch.ones(wavs.shape[0], device=self.device)
        wavs, wav_lens = wavs.to(self.device), wav_lens.to(self.device)
        wavs = wavs.float()
        feats = self.mods["compute_features"](wavs)
        feats = self.mods["mean_var_norm"](feats, wav_lens)
        return self.mods["embedding_model"](feats).mean(dim=1, keepdim=True)

classifier = EncoderClassifier.from_hparams(source="speechbrain/spkrec-ecapa-voxceleb",
                                            run_opts={"device": "cuda:0"})
signal = torch.randn(1, 16000)                       # torchaudio.load("spk1_snt1.wav"), on the CPU
'''
CELL = '''
with torch.no_grad():
    embeddings = classifier.encode_batch(signal)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
