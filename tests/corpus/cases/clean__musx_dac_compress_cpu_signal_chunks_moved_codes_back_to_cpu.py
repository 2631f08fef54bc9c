"""Look-alike: descript-audio-codec `DAC.compress` on a CUDA model with a CPU AudioSignal: chunks go up, codes come back.

Source: https://github.com/descriptinc/descript-audio-codec/blob/main/dac/model/base.py (`CodecMixin.compress` / `decompress`)
The README compresses a file with a model on CUDA: `model = dac.DAC.load(path).to("cuda")`,
`signal = AudioSignal("input.wav")` (CPU), `x = model.compress(signal)`. `compress` remembers
`original_device = audio_signal.device`, cuts the signal into windows, moves each window with
`x.audio_data.to(self.device)`, encodes it and appends `c.to(original_device)`, so the codes are
concatenated on the CPU on purpose (constant GPU memory); `decompress` moves each code chunk back with
`.to(self.device)` and the reconstruction to `original_device`. Stand-ins: AudioSignal reduced to
`audio_data` + `sample_rate`, a framing encoder/decoder and a residual VQ with codebook lookup.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class AudioSignal:
    def __init__(self, audio_data, sample_rate):
        self.audio_data, self.sample_rate = audio_data, sample_rate

    @property
    def device(self):
        return self.audio_data.device

class ResidualVectorQuantize(nn.Module):
    def __init__(self, dim=16, n_codebooks=4, codebook_size=64):
        super().__init__()
        self.codebooks = nn.ModuleList([nn.Embedding(codebook_size, dim) for _ in range(n_codebooks)])

    def forward(self, z):
        codes, residual, z_q = [], z, torch.zeros_like(z)
        for cb in self.codebooks:
            idx = (residual @ cb.weight.t()).argmax(-1)
            q = cb(idx)
            z_q, residual = z_q + q, residual - q
            codes.append(idx)
        return z_q, torch.stack(codes, dim=1)

    def from_codes(self, codes):
        return sum(cb(codes[:, i]) for i, cb in enumerate(self.codebooks)),

class DAC(nn.Module):
    def __init__(self, hop_length=512, dim=16, sample_rate=44100):
        super().__init__()
        self.hop_length, self.sample_rate = hop_length, sample_rate
        self.encoder = nn.Linear(hop_length, dim)
        self.quantizer = ResidualVectorQuantize(dim)
        self.decoder = nn.Linear(dim, hop_length)

    @property
    def device(self):
        return next(self.parameters()).device

    def encode(self, audio_data):
        frames = audio_data.reshape(audio_data.shape[0], -1, self.hop_length)
        z_q, codes = self.quantizer(self.encoder(frames))
        return z_q, codes

    def decode(self, z):
        return self.decoder(z).reshape(z.shape[0], 1, -1)

    @torch.no_grad()
    def compress(self, audio_signal, win_duration=1.0):
        self.eval()
        original_device = audio_signal.device
        audio = audio_signal.audio_data
        nb, nac, nt = audio.shape
        audio = audio.reshape(nb * nac, 1, nt)
        n_samples = int(win_duration * self.sample_rate) // self.hop_length * self.hop_length
        codes = []
        for i in range(0, nt, n_samples):
            x = audio[..., i : i + n_samples]
            x = nn.functional.pad(x, (0, n_samples - x.shape[-1]))
            audio_data = x.to(self.device)
            _, c = self.encode(audio_data)
            codes.append(c.to(original_device))
        return torch.cat(codes, dim=-1)

    @torch.no_grad()
    def decompress(self, codes, chunk_length):
        original_device = codes.device
        recons = []
        for i in range(0, codes.shape[-1], chunk_length):
            c = codes[..., i : i + chunk_length].to(self.device)
            z = self.quantizer.from_codes(c)[0]
            recons.append(self.decode(z).to(original_device))
        return torch.cat(recons, dim=-1)

model = DAC().to("cuda:0")                                   # dac.DAC.load(model_path).to("cuda")
signal = AudioSignal(torch.randn(1, 1, 44032 * 2), 44100)     # AudioSignal("input.wav"), on the CPU
'''
CELL = '''
codes = model.compress(signal)
y = model.decompress(codes, chunk_length=86)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
