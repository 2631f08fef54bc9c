"""DALLE-pytorch DiscreteVAE: the KL term's uniform log-prior is built with torch.Tensor on the CPU.

Source: https://github.com/lucidrains/DALLE-pytorch/issues/41
"Tensor device error when computing kl_div in VAE": right after the KL loss was added (commit
706f06d), `vae(images, return_loss=True)` on the GPU raised "Expected all tensors to be on the same
device" at `kl_div = (qy * (log_qy - g)).sum(dim=(1, 2)).mean()`. Inside `forward`, the prior is
`g = torch.log(torch.Tensor([1. / num_tokens]))`: a one-element CPU tensor (not a 0-dim scalar).
Stand-in: the encoder reduced to a 1x1 projection (a Linear over channels) producing token logits.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class DiscreteVAE(nn.Module):
    def __init__(self, num_tokens=64, channels=3, codebook_dim=16, kl_div_loss_weight=1.):
        super().__init__()
        self.num_tokens = num_tokens
        self.kl_div_loss_weight = kl_div_loss_weight
        self.encoder = nn.Linear(channels, num_tokens)        # 1x1 "conv" to token logits
        self.codebook = nn.Embedding(num_tokens, codebook_dim)
        self.decoder = nn.Linear(codebook_dim, channels)

    def forward(self, img, return_loss=False):
        num_tokens, kl_div_loss_weight = self.num_tokens, self.kl_div_loss_weight
        b, c, h, w = img.shape
        logits = self.encoder(img.permute(0, 2, 3, 1))       # b h w n
        soft_one_hot = F.softmax(logits, dim=-1)
        sampled = soft_one_hot @ self.codebook.weight
        out = self.decoder(sampled).permute(0, 3, 1, 2)
        if not return_loss:
            return out
        recon_loss = F.mse_loss(img, out)
        logits = logits.reshape(b, h * w, num_tokens)
        qy = F.softmax(logits, dim=-1)
        log_qy = torch.log(qy + 1e-20)
        g = torch.log(torch.Tensor([1. / num_tokens]))
        kl_div = (qy * (log_qy - g)).sum(dim=(1, 2)).mean()
        return recon_loss + (kl_div * kl_div_loss_weight)

device = torch.device("cuda:0")
vae = DiscreteVAE().to(device)
images = torch.randn(2, 3, 8, 8).to(device)
'''
CELL = '''
loss = vae(images, return_loss=True)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["vae"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "g = torch.log(torch.Tensor([1. / num_tokens]))",
    "g = torch.log(torch.tensor([1. / num_tokens], device=img.device))",
)
CLEAN = False
