"""SpeechBrain ECAPA `encode_batch(normalize=True)` on the GPU: InputNormalization's global stats are plain CPU tensors.

Source: https://github.com/speechbrain/speechbrain/issues/1434
"InputNormalization is not cuda compatible?": the user loaded `SpeakerRecognition` from
spkrec-ecapa-voxceleb, did `encoder.to(device)` with `device="cuda:0"`, moved the librosa signal to
the GPU and called `encoder.encode_batch(inp, normalize=True)` -> "Expected all tensors to be on the
same device, cuda:0 and cpu". Cause found by the reporter: `InputNormalization.__init__` sets
`self.glob_mean = torch.tensor([0])` / `self.glob_std = torch.tensor([0])` as plain attributes (the
loaded statistics too), so `Module.to()` never moves them; the embedding normaliser
`mean_var_norm_emb` then subtracts a CPU mean from a CUDA embedding. Stand-in: the pretrained
interface reduced to a ModuleDict of mods (Fbank-like front end, a linear "ECAPA" embedding) and the
InputNormalization with the stats as plain attributes.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class InputNormalization(nn.Module):
    def __init__(self, mean_norm=True, std_norm=True, norm_type="global"):
        super().__init__()
        self.mean_norm, self.std_norm, self.norm_type = mean_norm, std_norm, norm_type
        self.glob_mean = torch.tensor([0])
        self.glob_std = torch.tensor([0])
        self.eps = 1e-10

    def _load(self, stats):
        self.glob_mean = stats["glob_mean"]          # torch.load(path) -> CPU tensors
        self.glob_std = stats["glob_std"]

    def forward(self, x, lengths):
        return (x - self.glob_mean.data) / self.glob_std.data

class Fbank(nn.Module):
    def __init__(self, n_mels=24, win=400, hop=160):
        super().__init__()
        self.win, self.hop = win, hop
        self.register_buffer("fb", torch.rand(win // 2 + 1, n_mels))

    def forward(self, wavs):
        frames = wavs.unfold(-1, self.win, self.hop)
        return torch.matmul(torch.fft.rfft(frames).abs().pow(2), self.fb).clamp(min=1e-6).log()

class SpeakerRecognition(nn.Module):
    def __init__(self):
        super().__init__()
        self.mods = nn.ModuleDict({
            "compute_features": Fbank(),
            "mean_var_norm": InputNormalization(norm_type="sentence", std_norm=False),
            "embedding_model": nn.Linear(24, 16),
        })
        self.mean_var_norm_emb = InputNormalization(norm_type="global", std_norm=False)
        self.mean_var_norm_emb._load({"glob_mean": torch.randn(16), "glob_std": torch.ones(16)})

    def encode_batch(self, wavs, wav_lens=None, normalize=False):
        if wav_lens is None:
            wav_lens = torch.ones(wavs.shape[0], device=wavs.device)
        feats = self.mods["compute_features"](wavs)
        feats = feats - feats.mean(dim=1, keepdim=True)
        embeddings = self.mods["embedding_model"](feats).mean(dim=1, keepdim=True)
        if normalize:
            embeddings = self.mean_var_norm_emb(embeddings, torch.ones(embeddings.shape[0], device=wav_lens.device))
        return embeddings

encoder = SpeakerRecognition().eval()
device = "cuda:0"
encoder.to(device)
signal = torch.randn(16000)                          # librosa.load(path, sr=16000)
inp = torch.tensor(signal).to(device).unsqueeze(0)
'''
CELL = '''
emb = encoder.encode_batch(inp, normalize=True)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["encoder.mean_var_norm_emb"]
FIX = "namespace"
REFERENCE_FIX = '''
encoder.mean_var_norm_emb.glob_mean = encoder.mean_var_norm_emb.glob_mean.to(device)
encoder.mean_var_norm_emb.glob_std = encoder.mean_var_norm_emb.glob_std.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
