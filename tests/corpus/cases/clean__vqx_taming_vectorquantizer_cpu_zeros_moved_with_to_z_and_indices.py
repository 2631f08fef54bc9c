"""Look-alike: taming-transformers `VectorQuantizer` builds its one-hot encodings with a bare `torch.zeros(...)` and moves them with `.to(z)` / `.to(indices)`.

Source: https://github.com/CompVis/taming-transformers/blob/master/taming/modules/vqvae/quantize.py
`VectorQuantizer.forward` makes `min_encodings = torch.zeros(n, self.n_e).to(z)` and
`get_codebook_entry` makes `torch.zeros(indices.shape[0], self.n_e).to(indices)` before
`scatter_` and a matmul with the codebook (`min_encodings.float()` @ `embedding.weight`). The
zeros are created without a device but `.to(tensor)` puts them on the tensor's device (and
dtype), so with the VQ model on the GPU everything stays there. Nothing to report.
Stand-in: a VQModel-shaped first stage (one conv encoder/decoder, quant_conv/post_quant_conv) around
the library's VectorQuantizer; `indices[:,None]` is written `indices.unsqueeze(1)` (the simulated
GPU cannot index).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class VectorQuantizer(nn.Module):
    """taming.modules.vqvae.quantize.VectorQuantizer (legacy) as in the repository"""
    def __init__(self, n_e, e_dim, beta):
        super(VectorQuantizer, self).__init__()
        self.n_e = n_e
        self.e_dim = e_dim
        self.beta = beta
        self.embedding = nn.Embedding(self.n_e, self.e_dim)
        self.embedding.weight.data.uniform_(-1.0 / self.n_e, 1.0 / self.n_e)

    def forward(self, z):
        z = z.permute(0, 2, 3, 1).contiguous()
        z_flattened = z.view(-1, self.e_dim)
        d = torch.sum(z_flattened ** 2, dim=1, keepdim=True) + \\
            torch.sum(self.embedding.weight**2, dim=1) - 2 * \\
            torch.matmul(z_flattened, self.embedding.weight.t())
        min_encoding_indices = torch.argmin(d, dim=1).unsqueeze(1)
        min_encodings = torch.zeros(
            min_encoding_indices.shape[0], self.n_e).to(z)
        min_encodings.scatter_(1, min_encoding_indices, 1)
        z_q = torch.matmul(min_encodings, self.embedding.weight).view(z.shape)
        loss = torch.mean((z_q.detach()-z)**2) + self.beta * \\
            torch.mean((z_q - z.detach()) ** 2)
        z_q = z + (z_q - z).detach()
        e_mean = torch.mean(min_encodings, dim=0)
        perplexity = torch.exp(-torch.sum(e_mean * torch.log(e_mean + 1e-10)))
        z_q = z_q.permute(0, 3, 1, 2).contiguous()
        return z_q, loss, (perplexity, min_encodings, min_encoding_indices)

    def get_codebook_entry(self, indices, shape):
        min_encodings = torch.zeros(indices.shape[0], self.n_e).to(indices)
        min_encodings.scatter_(1, indices.unsqueeze(1), 1)
        z_q = torch.matmul(min_encodings.float(), self.embedding.weight)
        if shape is not None:
            z_q = z_q.view(shape)
            z_q = z_q.permute(0, 3, 1, 2).contiguous()
        return z_q

class VQModel(nn.Module):
    """stand-in for taming.models.vqgan.VQModel (encoder/decoder reduced to one conv each)"""
    def __init__(self, n_embed=1024, embed_dim=64, z_channels=64):
        super().__init__()
        self.encoder = nn.Conv2d(3, z_channels, 4, stride=4)
        self.decoder = nn.ConvTranspose2d(z_channels, 3, 4, stride=4)
        self.quantize = VectorQuantizer(n_embed, embed_dim, beta=0.25)
        self.quant_conv = nn.Conv2d(z_channels, embed_dim, 1)
        self.post_quant_conv = nn.Conv2d(embed_dim, z_channels, 1)

    def encode(self, x):
        h = self.quant_conv(self.encoder(x))
        return self.quantize(h)

    def decode(self, quant):
        return self.decoder(self.post_quant_conv(quant))

model = VQModel().to("cuda:0").eval()
x = torch.randn(2, 3, 64, 64, device="cuda:0")
'''
CELL = '''
quant, emb_loss, (perplexity, min_encodings, indices) = model.encode(x)
z_q = model.quantize.get_codebook_entry(indices.view(-1), shape=(2, 16, 16, 64))
xrec = model.decode(z_q)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
