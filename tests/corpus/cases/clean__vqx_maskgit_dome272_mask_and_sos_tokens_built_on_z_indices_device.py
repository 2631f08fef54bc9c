"""Look-alike: MaskGIT-pytorch training step draws a numpy mask ratio and builds its sos/mask tokens on `z_indices.device`.

Source: https://github.com/dome272/MaskGIT-pytorch/blob/main/transformer.py
`VQGANTransformer.forward` encodes the images to codebook indices with the frozen VQGAN, then
`sos_tokens = torch.ones(..., device=z_indices.device) * self.sos_token`, a mask ratio from
`np.random.uniform()` through the cosine gamma (a Python number), `torch.rand(z_indices.shape,
device=z_indices.device).topk(r)`, a bool mask filled with `scatter_`, `self.mask_token_id *
torch.ones_like(z_indices, ...)` and `mask * z_indices + (~mask) * masked_indices`. The training loop
moves the CPU batch with `imgs.to(device=args.device)`. Every tensor follows the indices' device;
the numpy value is a plain scalar. Nothing to report.
Stand-ins: the VQGAN (one conv encoder + nearest-codebook lookup) and the bidirectional transformer
(embeddings + MLP block + head); `args` as in training_transformer.py. `~mask` is written
`mask.logical_not()` (the simulated GPU has no bitwise not).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import types
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

class VQModel(nn.Module):
    """stand-in for the frozen VQGAN (vq_f16.VQModel): encode returns (quant, loss, (_, _, indices))"""
    def __init__(self, num_codebook_vectors=1024, latent_dim=64):
        super().__init__()
        self.encoder = nn.Conv2d(3, latent_dim, 16, stride=16)
        self.codebook = nn.Embedding(num_codebook_vectors, latent_dim)

    def encode(self, x):
        z = self.encoder(x).permute(0, 2, 3, 1)
        flat = z.reshape(-1, z.shape[-1])
        d = (flat ** 2).sum(1, keepdim=True) + (self.codebook.weight ** 2).sum(1) - 2 * flat @ self.codebook.weight.t()
        indices = d.argmin(dim=1)
        quant = self.codebook(indices).view(z.shape).permute(0, 3, 1, 2)
        return quant, None, (None, None, indices)

class BidirectionalTransformer(nn.Module):
    """stand-in: token + position embeddings, one MLP block, LayerNorm, head"""
    def __init__(self, args):
        super().__init__()
        self.tok_emb = nn.Embedding(args.num_codebook_vectors + 2, args.dim)
        self.pos_emb = nn.Parameter(torch.zeros(1, args.num_image_tokens + 1, args.dim))
        self.mlp = nn.Sequential(nn.Linear(args.dim, 4 * args.dim), nn.GELU(), nn.Linear(4 * args.dim, args.dim))
        self.ln = nn.LayerNorm(args.dim)
        self.head = nn.Linear(args.dim, args.num_codebook_vectors + 2)

    def forward(self, x):
        h = self.tok_emb(x) + self.pos_emb
        h = h + self.mlp(self.ln(h))
        return self.head(self.ln(h))

class VQGANTransformer(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.num_image_tokens = args.num_image_tokens
        self.sos_token = args.num_codebook_vectors + 1
        self.mask_token_id = args.num_codebook_vectors
        self.gamma = self.gamma_func("cosine")
        self.transformer = BidirectionalTransformer(args)
        self.vqgan = VQModel(args.num_codebook_vectors).eval()

    @torch.no_grad()
    def encode_to_z(self, x):
        quant_z, _, (_, _, indices) = self.vqgan.encode(x)
        indices = indices.view(quant_z.shape[0], -1)
        return quant_z, indices

    def forward(self, x):
        _, z_indices = self.encode_to_z(x)
        sos_tokens = torch.ones(x.shape[0], 1, dtype=torch.long, device=z_indices.device) * self.sos_token

        r = math.floor(self.gamma(np.random.uniform()) * z_indices.shape[1])
        sample = torch.rand(z_indices.shape, device=z_indices.device).topk(r, dim=1).indices
        mask = torch.zeros(z_indices.shape, dtype=torch.bool, device=z_indices.device)
        mask.scatter_(dim=1, index=sample, value=True)

        masked_indices = self.mask_token_id * torch.ones_like(z_indices, device=z_indices.device)
        a_indices = mask * z_indices + (mask.logical_not()) * masked_indices   # repo: (~mask)
        a_indices = torch.cat((sos_tokens, a_indices), dim=1)
        target = torch.cat((sos_tokens, z_indices), dim=1)
        logits = self.transformer(a_indices)
        return logits, target

    def gamma_func(self, mode="cosine"):
        if mode == "cosine":
            return lambda r: np.cos(r * np.pi / 2)
        raise NotImplementedError

args = types.SimpleNamespace(num_image_tokens=256, num_codebook_vectors=1024, dim=128, device="cuda:0")
np.random.seed(0)
model = VQGANTransformer(args).to(device=args.device)
imgs = torch.randn(2, 3, 256, 256)          # a batch from the DataLoader, on the CPU
'''
CELL = '''
imgs = imgs.to(device=args.device)
logits, target = model(imgs)
loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), target.reshape(-1))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
