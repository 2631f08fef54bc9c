"""vector-quantize-pytorch: README `VectorQuantize` fed a `.cuda()` input while the `vq` module stays on the CPU.

Source: https://github.com/lucidrains/vector-quantize-pytorch/issues/37
The user ran the README example (`vq = VectorQuantize(dim=256, codebook_size=512, decay=0.8,
commitment_weight=1.)`) but moved only the input, `x = x.cuda()`, and `quantized, indices,
commit_loss = vq(x)` failed in `torch.cdist(flatten, embed)` ("X1 and X2 must have the same device
type. X1: cuda X2: cpu"): the codebook `embed` is a buffer of the `vq` module, still on the CPU.
The maintainer's answer: place the vq instance on cuda as well, `vq = vq.cuda()`.
Stand-in: VectorQuantize / EuclideanCodebook (0.x/1.0 era) reduced to the codebook buffers, the
cdist nearest-code lookup, the EMA update and the commitment loss.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class EuclideanCodebook(nn.Module):
    """stand-in for vector_quantize_pytorch.EuclideanCodebook: the codebook lives in buffers"""
    def __init__(self, dim, codebook_size, decay=0.8, eps=1e-5):
        super().__init__()
        self.decay, self.eps = decay, eps
        embed = torch.randn(codebook_size, dim)
        self.register_buffer('initted', torch.Tensor([True]))
        self.register_buffer('cluster_size', torch.zeros(codebook_size))
        self.register_buffer('embed', embed)
        self.register_buffer('embed_avg', embed.clone())

    def forward(self, x):
        shape = x.shape
        flatten = x.reshape(-1, shape[-1])
        embed = self.embed
        dist = -torch.cdist(flatten, embed, p=2)
        embed_ind = dist.argmax(dim=-1)
        embed_onehot = F.one_hot(embed_ind, embed.shape[0]).type(x.dtype)
        quantize = F.embedding(embed_ind, embed).reshape(shape)
        if self.training:
            self.cluster_size.lerp_(embed_onehot.sum(0), 1 - self.decay)
            embed_sum = flatten.t() @ embed_onehot
            self.embed_avg.lerp_(embed_sum.t(), 1 - self.decay)
        return quantize, embed_ind.reshape(shape[:-1])

class VectorQuantize(nn.Module):
    """stand-in for vector_quantize_pytorch.VectorQuantize"""
    def __init__(self, dim, codebook_size, decay=0.8, commitment_weight=1.):
        super().__init__()
        self.project_in = nn.Identity()
        self.project_out = nn.Identity()
        self.commitment_weight = commitment_weight
        self._codebook = EuclideanCodebook(dim, codebook_size, decay=decay)

    @property
    def codebook(self):
        return self._codebook.embed

    def forward(self, x):
        x = self.project_in(x)
        quantize, embed_ind = self._codebook(x)
        commit_loss = F.mse_loss(quantize.detach(), x) * self.commitment_weight
        quantize = x + (quantize - x).detach()
        return self.project_out(quantize), embed_ind, commit_loss

vq = VectorQuantize(
    dim = 256,
    codebook_size = 512,     # codebook size
    decay = 0.8,             # the exponential moving average decay
    commitment_weight = 1.   # the weight on the commitment loss
)

x = torch.randn(1, 1024, 256)
x = x.to("cuda:0")
'''
CELL = '''
quantized, indices, commit_loss = vq(x) # (1, 1024, 256), (1, 1024), (1)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device | must have the same device type"
CULPRITS = ["vq"]
FIX = "namespace"
REFERENCE_FIX = '''
vq = vq.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
