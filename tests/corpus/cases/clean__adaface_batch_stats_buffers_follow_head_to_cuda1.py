"""AdaFace head: the running feature-norm statistics are registered buffers, so they follow the head.

Source: https://github.com/mk-minchul/AdaFace/issues/15
"how to handle 'register_buffer' with multiple gpu cards": the AdaFace margin head keeps
`self.register_buffer('batch_mean', torch.ones(1)*(20))` and `batch_std` and updates them in `forward`;
the user worried they would end up on the wrong GPU. The maintainer: multi-GPU is handled, the code
was tested that way - buffers move with the module. Look-alike: a head on cuda:1 whose statistics are
re-assigned in forward from device tensors; the labels and embeddings are on cuda:1 too.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn
import torch.nn.functional as F

class AdaFace(nn.Module):
    def __init__(self, embedding_size=64, classnum=100, m=0.4, h=0.333, s=64., t_alpha=1.0):
        super().__init__()
        self.kernel = nn.Parameter(torch.randn(embedding_size, classnum) * 0.01)
        self.m, self.h, self.s, self.t_alpha, self.eps = m, h, s, t_alpha, 1e-3
        self.register_buffer('t', torch.zeros(1))
        self.register_buffer('batch_mean', torch.ones(1) * (20))
        self.register_buffer('batch_std', torch.ones(1) * 100)

    def forward(self, embbedings, norms, label):
        kernel_norm = F.normalize(self.kernel, dim=0)
        cosine = torch.mm(embbedings, kernel_norm).clamp(-1 + self.eps, 1 - self.eps)
        safe_norms = torch.clip(norms, min=0.001, max=100).clone().detach()
        with torch.no_grad():
            mean = safe_norms.mean().detach()
            std = safe_norms.std().detach()
            self.batch_mean = mean * self.t_alpha + (1 - self.t_alpha) * self.batch_mean
            self.batch_std = std * self.t_alpha + (1 - self.t_alpha) * self.batch_std
        margin_scaler = (safe_norms - self.batch_mean) / (self.batch_std + self.eps)
        margin_scaler = torch.clip(margin_scaler * self.h, -1, 1)
        m_arc = F.one_hot(label, cosine.size(1)).to(cosine.dtype) * self.m * margin_scaler
        return (cosine - m_arc) * self.s

device = torch.device("cuda:1")
head = AdaFace().to(device)
embeddings = F.normalize(torch.randn(32, 64, device=device), dim=1)
norms = torch.rand(32, 1, device=device) * 30
labels = torch.randint(0, 100, (32,), device=device)
'''
CELL = '''
cos_thetas = head(embeddings, norms, labels)
loss = F.cross_entropy(cos_thetas, labels)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
