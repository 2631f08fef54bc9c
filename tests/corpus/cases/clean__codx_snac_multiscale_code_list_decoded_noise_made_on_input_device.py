"""Look-alike: SNAC on the GPU: `encode` returns a Python list of code tensors at different rates, `decode` takes the list back and draws noise inside forward.

Source: https://github.com/hubertsiuzdak/snac/blob/main/snac/snac.py (`SNAC.encode` / `decode`), snac/vq.py (`ResidualVectorQuantize`) and snac/layers.py (`NoiseBlock`), used as in the README (`model = SNAC.from_pretrained(...).eval().cuda()`, `codes = model.encode(audio)`, `audio_hat = model.decode(codes)`)
`codes` is a list of token sequences of variable lengths (one per `vq_strides` entry, each made by
`avg_pool1d` + codebook lookup on the model's device), and `from_codes` up-samples each level with
`repeat_interleave` before summing. The decoder's `NoiseBlock` creates `torch.randn((B, 1, T),
device=x.device, dtype=x.dtype)` inside `forward`, the pattern of a tensor made in forward but with the
input's device and dtype, and `Snake1d`'s `alpha` is an `nn.Parameter`. Everything stays on the GPU.
Stand-in: the local-attention blocks left out (`attn_window_size=None`), weight-normed convs as plain
convs, `rearrange` as reshape/permute, fewer residual units, small widths; no download.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

class Snake1d(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.alpha = nn.Parameter(torch.ones(1, channels, 1))

    def forward(self, x):
        return x + (self.alpha + 1e-9).reciprocal() * torch.sin(self.alpha * x).pow(2)

class EncoderBlock(nn.Module):
    def __init__(self, output_dim, stride):
        super().__init__()
        input_dim = output_dim // 2
        self.block = nn.Sequential(
            Snake1d(input_dim),
            nn.Conv1d(input_dim, output_dim, kernel_size=2 * stride, stride=stride, padding=math.ceil(stride / 2)),
        )

    def forward(self, x):
        return self.block(x)

class NoiseBlock(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.linear = nn.Conv1d(dim, dim, kernel_size=1, bias=False)

    def forward(self, x):
        B, C, T = x.shape
        noise = torch.randn((B, 1, T), device=x.device, dtype=x.dtype)
        h = self.linear(x)
        n = noise * h
        x = x + n
        return x

class DecoderBlock(nn.Module):
    def __init__(self, input_dim, output_dim, stride, noise=False):
        super().__init__()
        layers = [
            Snake1d(input_dim),
            nn.ConvTranspose1d(input_dim, output_dim, kernel_size=2 * stride, stride=stride,
                               padding=math.ceil(stride / 2), output_padding=stride % 2),
        ]
        if noise:
            layers.append(NoiseBlock(output_dim))
        self.block = nn.Sequential(*layers)

    def forward(self, x):
        return self.block(x)

class VectorQuantize(nn.Module):
    def __init__(self, input_dim, codebook_size, codebook_dim, stride=1):
        super().__init__()
        self.stride = stride
        self.in_proj = nn.Conv1d(input_dim, codebook_dim, kernel_size=1)
        self.out_proj = nn.Conv1d(codebook_dim, input_dim, kernel_size=1)
        self.codebook = nn.Embedding(codebook_size, codebook_dim)

    def forward(self, z):
        if self.stride > 1:
            z = torch.nn.functional.avg_pool1d(z, self.stride, self.stride)
        z_e = self.in_proj(z)
        z_q, indices = self.decode_latents(z_e)
        z_q = z_e + (z_q - z_e).detach()
        z_q = self.out_proj(z_q)
        if self.stride > 1:
            z_q = z_q.repeat_interleave(self.stride, dim=-1)
        return z_q, indices

    def decode_code(self, embed_id):
        return F.embedding(embed_id, self.codebook.weight).transpose(1, 2)

    def decode_latents(self, latents):
        b, d, t = latents.shape
        encodings = F.normalize(latents.permute(0, 2, 1).reshape(b * t, d))
        codebook = F.normalize(self.codebook.weight)
        dist = (encodings.pow(2).sum(1, keepdim=True) - 2 * encodings @ codebook.t()
                + codebook.pow(2).sum(1, keepdim=True).t())
        indices = (-dist).max(1)[1].reshape(b, t)
        return self.decode_code(indices), indices

class ResidualVectorQuantize(nn.Module):
    def __init__(self, input_dim=128, codebook_size=4096, codebook_dim=8, vq_strides=[4, 2, 1]):
        super().__init__()
        self.n_codebooks = len(vq_strides)
        self.quantizers = nn.ModuleList(
            [VectorQuantize(input_dim, codebook_size, codebook_dim, stride) for stride in vq_strides]
        )

    def forward(self, z):
        z_q = 0
        residual = z
        codes = []
        for quantizer in self.quantizers:
            z_q_i, indices_i = quantizer(residual)
            z_q = z_q + z_q_i
            residual = residual - z_q_i
            codes.append(indices_i)
        return z_q, codes

    def from_codes(self, codes):
        z_q = 0.0
        for i in range(self.n_codebooks):
            z_p_i = self.quantizers[i].decode_code(codes[i])
            z_q_i = self.quantizers[i].out_proj(z_p_i)
            z_q_i = z_q_i.repeat_interleave(self.quantizers[i].stride, dim=-1)
            z_q += z_q_i
        return z_q

class SNAC(nn.Module):
    def __init__(self, sampling_rate=24000, encoder_dim=16, encoder_rates=[2, 4, 8], decoder_dim=128,
                 decoder_rates=[8, 4, 2], attn_window_size=None, codebook_size=4096, codebook_dim=8,
                 vq_strides=[4, 2, 1], noise=True):
        super().__init__()
        self.sampling_rate = sampling_rate
        self.hop_length = math.prod(encoder_rates)
        self.vq_strides, self.attn_window_size = vq_strides, attn_window_size
        latent_dim = encoder_dim * (2 ** len(encoder_rates))
        d = encoder_dim
        enc = [nn.Conv1d(1, d, kernel_size=7, padding=3)]
        for stride in encoder_rates:
            d *= 2
            enc.append(EncoderBlock(d, stride))
        self.encoder = nn.Sequential(*enc)
        self.quantizer = ResidualVectorQuantize(latent_dim, codebook_size, codebook_dim, vq_strides)
        dec = [nn.Conv1d(latent_dim, decoder_dim, kernel_size=7, padding=3)]
        for i, stride in enumerate(decoder_rates):
            dec.append(DecoderBlock(decoder_dim // 2 ** i, decoder_dim // 2 ** (i + 1), stride, noise))
        out_dim = decoder_dim // 2 ** len(decoder_rates)
        dec += [Snake1d(out_dim), nn.Conv1d(out_dim, 1, kernel_size=7, padding=3), nn.Tanh()]
        self.decoder = nn.Sequential(*dec)

    def preprocess(self, audio_data):
        length = audio_data.shape[-1]
        lcm = math.lcm(self.vq_strides[0], self.attn_window_size or 1)
        pad_to = self.hop_length * lcm
        right_pad = math.ceil(length / pad_to) * pad_to - length
        return nn.functional.pad(audio_data, (0, right_pad))

    def encode(self, audio_data):
        audio_data = self.preprocess(audio_data)
        z = self.encoder(audio_data)
        _, codes = self.quantizer(z)
        return codes

    def decode(self, codes):
        z_q = self.quantizer.from_codes(codes)
        return self.decoder(z_q)

model = SNAC().eval().to("cuda:0")                  # SNAC.from_pretrained("hubertsiuzdak/snac_24khz").eval().cuda()
audio = torch.randn(1, 1, 24000).to("cuda:0")       # placeholder for actual audio with shape (B, 1, T)
'''
CELL = '''
with torch.inference_mode():
    codes = model.encode(audio)
    audio_hat = model.decode(codes)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
