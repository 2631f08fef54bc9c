"""UniqToken's NeuralAudioCodec in half precision: `decode_from_indices` sums the RVQ codes into a float32 accumulator.

Source: https://github.com/umran666/UniqToken/issues/14
"Wrong-dtype accumulator": `NeuralAudioCodec.decode_from_indices` builds its accumulator with
`torch.zeros(b * t_prime, self.latent_dim, device=device)` and no `dtype`, so it is always float32;
for a `.half()` model the half codebook vectors are added into it (the sum stays float32) and
`self.decoder` raises "Input type (float) and bias type (c10::Half) should be the same". The fix
(as `forward()` already does with `zeros_like`) creates the accumulator with the parameters' dtype.
Stand-in: the EnCodec/SoundStream-style codec reduced to a one-stride conv encoder, the RVQ
`nn.Embedding` codebooks and a decoder that starts with the 1-D residual block, as in the repo.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import torch
from torch import nn

class ResidualBlock1D(nn.Module):
    def __init__(self, channels, dilation=1):
        super().__init__()
        self.conv1 = nn.Conv1d(channels, channels, kernel_size=3, padding=dilation, dilation=dilation)
        self.conv2 = nn.Conv1d(channels, channels, kernel_size=1)
        self.act = nn.ELU()

    def forward(self, x):
        out = self.act(self.conv1(x))
        return self.act(self.conv2(out) + x)

class AudioEncoder(nn.Module):
    def __init__(self, in_channels=1, latent_dim=32):
        super().__init__()
        self.down = nn.Conv1d(in_channels, latent_dim, kernel_size=320, stride=320)
        self.res = ResidualBlock1D(latent_dim)

    def forward(self, x):
        return self.res(self.down(x))

class AudioDecoder(nn.Module):
    def __init__(self, out_channels=1, latent_dim=32):
        super().__init__()
        self.res1 = ResidualBlock1D(latent_dim)
        self.up = nn.ConvTranspose1d(latent_dim, out_channels, kernel_size=320, stride=320)

    def forward(self, z):
        return torch.tanh(self.up(self.res1(z)))

class NeuralAudioCodec(nn.Module):
    def __init__(self, in_channels=1, latent_dim=32, num_quantizers=4, codebook_size=64):
        super().__init__()
        self.encoder = AudioEncoder(in_channels, latent_dim)
        self.decoder = AudioDecoder(in_channels, latent_dim)
        self.num_quantizers, self.codebook_size, self.latent_dim = num_quantizers, codebook_size, latent_dim
        self.quantizers = nn.ModuleList([nn.Embedding(codebook_size, latent_dim) for _ in range(num_quantizers)])
        for quantizer in self.quantizers:
            quantizer.weight.data.uniform_(-1.0 / math.sqrt(latent_dim), 1.0 / math.sqrt(latent_dim))

    def encode_to_tokens(self, audio):
        h = self.encoder(audio)
        b, d, t_prime = h.shape
        residual = h.permute(0, 2, 1).contiguous().view(-1, d)
        all_indices = []
        for quantizer in self.quantizers:
            dist = (torch.sum(residual ** 2, dim=1, keepdim=True) + torch.sum(quantizer.weight ** 2, dim=1)
                    - 2 * torch.matmul(residual, quantizer.weight.t()))
            indices = torch.argmin(dist, dim=1)
            all_indices.append(indices)
            residual = residual - quantizer(indices)
        indices_3d = torch.stack(all_indices, dim=1).view(b, t_prime, self.num_quantizers)
        tokens = [f"<|aud_q{q}_{int(c):04d}|>" for q, c in enumerate(indices_3d[0, 0].tolist())]
        return tokens, indices_3d

    def decode_from_indices(self, indices, output_length=None):
        b, t_prime, n_q = indices.shape
        device = next(self.parameters()).device
        if indices.device != device:
            indices = indices.to(device)
        z_q_total = torch.zeros(b * t_prime, self.latent_dim, device=device)
        flat_indices = indices.view(b * t_prime, n_q)
        for q_idx in range(n_q):
            z_q_total = z_q_total + self.quantizers[q_idx](flat_indices[:, q_idx])
        z_q = z_q_total.view(b, t_prime, self.latent_dim).permute(0, 2, 1).contiguous()
        reconstructed = self.decoder(z_q)
        if output_length is not None:
            reconstructed = reconstructed[..., :output_length]
        return reconstructed

model = NeuralAudioCodec().half().eval()
audio = (torch.rand(2, 1, 3200) * 2 - 1).half()
with torch.no_grad():
    tokens, indices = model.encode_to_tokens(audio)
'''
CELL = '''
with torch.no_grad():
    recon = model.decode_from_indices(indices, output_length=audio.shape[-1])
'''
EXPECT_ERROR = ("Input type (float) and bias type (c10::Half) should be the same", "should be the same")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "z_q_total = torch.zeros(b * t_prime, self.latent_dim, device=device)",
    "z_q_total = torch.zeros(b * t_prime, self.latent_dim, device=device, dtype=next(self.parameters()).dtype)",
)
CLEAN = False
