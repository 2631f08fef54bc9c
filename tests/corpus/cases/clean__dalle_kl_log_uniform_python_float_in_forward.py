"""Look-alike: a constant in a VAE's forward kept as a Python float (no tensor, no device).

Source: https://github.com/lucidrains/DALLE-pytorch/issues/41
After the KL-term device error (`torch.log(torch.Tensor([1. / num_tokens]))` on the CPU), the
prior's log-probability can be kept a Python number: `math.log(1. / num_tokens)` broadcasts with
any device. A GPU forward that computes the KL with a Python scalar; nothing to report.
Stand-in: the DiscreteVAE of the failing case with the scalar prior.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn
import torch.nn.functional as F

class DiscreteVAE(nn.Module):
    def __init__(self, num_tokens=64, channels=3, codebook_dim=16, kl_div_loss_weight=1.):
        super().__init__()
        self.num_tokens = num_tokens
        self.kl_div_loss_weight = kl_div_loss_weight
        self.encoder = nn.Linear(channels, num_tokens)
        self.codebook = nn.Embedding(num_tokens, codebook_dim)
        self.decoder = nn.Linear(codebook_dim, channels)

    def forward(self, img, return_loss=False):
        b, c, h, w = img.shape
        logits = self.encoder(img.permute(0, 2, 3, 1))
        sampled = F.softmax(logits, dim=-1) @ self.codebook.weight
        out = self.decoder(sampled).permute(0, 3, 1, 2)
        if not return_loss:
            return out
        recon_loss = F.mse_loss(img, out)
        qy = F.softmax(logits.reshape(b, h * w, self.num_tokens), dim=-1)
        log_qy = torch.log(qy + 1e-20)
        g = math.log(1. / self.num_tokens)
        kl_div = (qy * (log_qy - g)).sum(dim=(1, 2)).mean()
        return recon_loss + kl_div * self.kl_div_loss_weight

device = torch.device("cuda:0")
vae = DiscreteVAE().to(device)
images = torch.randn(2, 3, 8, 8).to(device)
'''
CELL = '''
loss = vae(images, return_loss=True)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
