"""SpeechBrain `SpeakerRecognition.verify_files` with `run_opts={"device": "cuda:0"}`: `encode_batch` never moves the loaded waveforms.

Source: https://github.com/speechbrain/speechbrain/issues/777
"how to use gpu to predict speaker similar": after the advice to pass `run_opts={"device":"cuda"}`,
a second user ran `SpeakerRecognition.from_hparams(source="speechbrain/spkrec-ecapa-voxceleb",
..., run_opts={"device":"cuda:0"})` and `verification.verify_files(ef, tf)`, which failed in
`verify_batch` -> `encode_batch`: the files are loaded on the CPU and `encode_batch` fed them to the
modules on cuda:0 as they were. The maintainers fixed the interfaces ("Fix device mismatch in
verification + ASR inference (when using gpu)", speechbrain PR #802) by moving `wavs`/`wav_lens`
to `self.device` inside `encode_batch`. Stand-in: the interface reduced to load_audio, a
Fbank-like front end (filterbank buffer), sentence mean normalisation and a linear embedding.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
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
        return torch.matmul(frames.pow(2)[..., : self.win // 2 + 1], self.fb).clamp(min=1e-6).log()

class SpeakerRecognition(nn.Module):
    def __init__(self, device="cpu"):
        super().__init__()
        self.device = device
        self.mods = nn.ModuleDict({"compute_features": Fbank(), "embedding_model": nn.Linear(24, 16)})
        self.mods.to(self.device)
        self.similarity = nn.CosineSimilarity(dim=-1, eps=1e-6)

    @classmethod
    def from_hparams(cls, source, savedir=None, run_opts=None):
        return cls(device=(run_opts or {}).get("device", "cpu"))

    def load_audio(self, path):
        return torch.randn(16000)                      # torchaudio.load(path), on the CPU

    def encode_batch(self, wavs, wav_lens=None, normalize=False):
        if len(wavs.shape) == 1:
            wavs = wavs.unsqueeze(0)
        if wav_lens is None:
            wav_lens = torch.ones(wavs.shape[0], device=self.device)
        wavs = wavs.float()
        feats = self.mods["compute_features"](wavs)
        feats = feats - feats.mean(dim=1, keepdim=True)
        return self.mods["embedding_model"](feats).mean(dim=1, keepdim=True)

    def verify_batch(self, wavs1, wavs2, wav1_lens=None, wav2_lens=None, threshold=0.25):
        emb1 = self.encode_batch(wavs1, wav1_lens, normalize=True)
        emb2 = self.encode_batch(wavs2, wav2_lens, normalize=True)
        score = self.similarity(emb1, emb2)
        return score, score > threshold

    def verify_files(self, path_x, path_y):
        batch_x = self.load_audio(path_x).unsqueeze(0)
        batch_y = self.load_audio(path_y).unsqueeze(0)
        score, decision = self.verify_batch(batch_x, batch_y)
        return score[0], decision[0]

verification = SpeakerRecognition.from_hparams(source="speechbrain/spkrec-ecapa-voxceleb",
                                               savedir="pretrained_models/spkrec-ecapa-voxceleb",
                                               run_opts={"device": "cuda:0"})
ef, tf = "enrol.wav", "test.wav"
'''
CELL = '''
score, prediction = verification.verify_files(ef, tf)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["wavs"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        wavs = wavs.float()\n",
    "        wavs, wav_lens = wavs.to(self.device), wav_lens.to(self.device)\n        wavs = wavs.float()\n",
)
CLEAN = False
