"""Look-alike: DAC's ResidualVectorQuantize in training mode draws the per-item quantizer counts on the CPU and moves them.

Source: https://github.com/descriptinc/descript-audio-codec/blob/main/dac/nn/quantize.py (`ResidualVectorQuantize.forward`)
With `quantizer_dropout > 0` and `self.training`, `forward` builds `n_quantizers = torch.ones((B,)) *
self.n_codebooks + 1` and `dropout = torch.randint(1, self.n_codebooks + 1, (B,))` with no device
(CPU), mixes them in place on the CPU, and only then does `n_quantizers = n_quantizers.to(z.device)`;
the per-codebook mask is `torch.full((B,), fill_value=i, device=z.device) < n_quantizers`. A
quantizer on the GPU fed GPU latents therefore runs: the CPU tensors are deliberate and moved before
they meet `z`. Stand-in: `VectorQuantize` with plain 1x1 convs for the weight-normed `WNConv1d`,
`rearrange` written as reshape/permute and `mask[:, None, None]` as `mask.view(-1, 1, 1)`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class VectorQuantize(nn.Module):
    def __init__(self, input_dim, codebook_size, codebook_dim):
        super().__init__()
        self.codebook_size, self.codebook_dim = codebook_size, codebook_dim
        self.in_proj = nn.Conv1d(input_dim, codebook_dim, kernel_size=1)
        self.out_proj = nn.Conv1d(codebook_dim, input_dim, kernel_size=1)
        self.codebook = nn.Embedding(codebook_size, codebook_dim)

    def forward(self, z):
        z_e = self.in_proj(z)
        z_q, indices = self.decode_latents(z_e)
        commitment_loss = F.mse_loss(z_e, z_q.detach(), reduction="none").mean([1, 2])
        codebook_loss = F.mse_loss(z_q, z_e.detach(), reduction="none").mean([1, 2])
        z_q = z_e + (z_q - z_e).detach()
        z_q = self.out_proj(z_q)
        return z_q, commitment_loss, codebook_loss, indices, z_e

    def decode_code(self, embed_id):
        return F.embedding(embed_id, self.codebook.weight).transpose(1, 2)

    def decode_latents(self, latents):
        b, d, t = latents.shape
        encodings = latents.permute(0, 2, 1).reshape(b * t, d)
        codebook = self.codebook.weight
        encodings = F.normalize(encodings)
        codebook = F.normalize(codebook)
        dist = (encodings.pow(2).sum(1, keepdim=True) - 2 * encodings @ codebook.t()
                + codebook.pow(2).sum(1, keepdim=True).t())
        indices = (-dist).max(1)[1].reshape(b, t)
        return self.decode_code(indices), indices

class ResidualVectorQuantize(nn.Module):
    def __init__(self, input_dim=64, n_codebooks=9, codebook_size=1024, codebook_dim=8, quantizer_dropout=0.0):
        super().__init__()
        self.n_codebooks = n_codebooks
        self.quantizers = nn.ModuleList(
            [VectorQuantize(input_dim, codebook_size, codebook_dim) for _ in range(n_codebooks)]
        )
        self.quantizer_dropout = quantizer_dropout

    def forward(self, z, n_quantizers=None):
        z_q = 0
        residual = z
        commitment_loss = 0
        codebook_loss = 0
        codebook_indices = []
        latents = []
        if n_quantizers is None:
            n_quantizers = self.n_codebooks
        if self.training:
            n_quantizers = torch.ones((z.shape[0],)) * self.n_codebooks + 1
            dropout = torch.randint(1, self.n_codebooks + 1, (z.shape[0],))
            n_dropout = int(z.shape[0] * self.quantizer_dropout)
            n_quantizers[:n_dropout] = dropout[:n_dropout]
            n_quantizers = n_quantizers.to(z.device)
        for i, quantizer in enumerate(self.quantizers):
            if self.training is False and i >= n_quantizers:
                break
            z_q_i, commitment_loss_i, codebook_loss_i, indices_i, z_e_i = quantizer(residual)
            mask = torch.full((z.shape[0],), fill_value=i, device=z.device) < n_quantizers
            z_q = z_q + z_q_i * mask.view(-1, 1, 1)
            residual = residual - z_q_i
            commitment_loss += (commitment_loss_i * mask).mean()
            codebook_loss += (codebook_loss_i * mask).mean()
            codebook_indices.append(indices_i)
            latents.append(z_e_i)
        codes = torch.stack(codebook_indices, dim=1)
        latents = torch.cat(latents, dim=1)
        return z_q, codes, latents, commitment_loss, codebook_loss

quantizer = ResidualVectorQuantize(input_dim=64, n_codebooks=9, codebook_size=1024, quantizer_dropout=0.5)
quantizer = quantizer.to("cuda:0").train()
z = torch.randn(8, 64, 50, device="cuda:0")       # encoder output of a training batch
'''
CELL = '''
with torch.no_grad():
    z_q, codes, latents, commitment_loss, codebook_loss = quantizer(z)
loss = commitment_loss * 0.25 + codebook_loss
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
