"""Look-alike: DALLE-pytorch `DiscreteVAE` samples codes with `F.gumbel_softmax` on the logits and mixes them into a codebook embedding on the same GPU.

Source: https://github.com/lucidrains/DALLE-pytorch/blob/main/dalle_pytorch/dalle_pytorch.py
`DiscreteVAE.forward`: `logits = self.encoder(img)`, `soft_one_hot = F.gumbel_softmax(logits, tau=temp,
dim=1, hard=self.straight_through)`, `sampled = einsum('b n h w, n d -> b d h w', soft_one_hot,
self.codebook.weight)`, then the decoder. The Gumbel noise is drawn inside `gumbel_softmax` on the
logits' device; the temperature is a plain Python float. Nothing to report. Stand-in: one-conv
encoder/decoder, 64-entry codebook.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn, einsum
import torch.nn.functional as F

class DiscreteVAE(nn.Module):
    def __init__(self, num_tokens=64, codebook_dim=32, hidden_dim=16, temperature=0.9, straight_through=False):
        super().__init__()
        self.num_tokens = num_tokens
        self.temperature = temperature
        self.straight_through = straight_through
        self.codebook = nn.Embedding(num_tokens, codebook_dim)
        self.encoder = nn.Sequential(nn.Conv2d(3, hidden_dim, 4, stride=2, padding=1), nn.ReLU(),
                                     nn.Conv2d(hidden_dim, num_tokens, 1))
        self.decoder = nn.Sequential(nn.ConvTranspose2d(codebook_dim, hidden_dim, 4, stride=2, padding=1), nn.ReLU(),
                                     nn.Conv2d(hidden_dim, 3, 1))

    def forward(self, img, temp=None):
        logits = self.encoder(img)
        temp = temp if temp is not None else self.temperature
        soft_one_hot = F.gumbel_softmax(logits, tau=temp, dim=1, hard=self.straight_through)
        sampled = einsum('b n h w, n d -> b d h w', soft_one_hot, self.codebook.weight)
        return self.decoder(sampled)

vae = DiscreteVAE().to("cuda:0")
images = torch.randn(4, 3, 32, 32, device="cuda:0")
'''
CELL = '''
with torch.no_grad():
    recons = vae(images, temp=1.0)
    loss = F.mse_loss(images, recons)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
