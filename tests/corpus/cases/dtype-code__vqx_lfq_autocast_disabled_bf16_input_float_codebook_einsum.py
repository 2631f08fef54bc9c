"""vector-quantize-pytorch `LFQ` under bf16 mixed precision: the entropy einsum mixes the bf16 input with the float32 codebook buffer.

Source: https://github.com/lucidrains/vector-quantize-pytorch/pull/100
Training a VQGAN-style tokenizer with LFQ in bf16, the contributor hit "expected scalar type Float but
found BFloat16" in `distance = -2 * einsum('... i d, j d -> ... i j', original_input, self.codebook)`:
`LFQ.forward` runs with autocast disabled, so the encoder's bf16 features meet the float32
`codebook` buffer unconverted ("it should be covered by the autocast mechanism ... but somehow the
autocast does not work"). The PR proposed an explicit cast; the maintainer instead made LFQ do the
quantization in float32, `x = x.float()` at the top of `forward` (1.12.10, "just do lfq in f32").
Stand-in: LFQ as of 1.12.9 (mask/codebook buffers, sign quantization, entropy aux loss, commit
loss; projections are identities since dim == log2(codebook_size)). The CUDA
`@autocast(enabled = False)` on `forward` is written for the CPU (`torch.autocast("cpu", ...)`) so the
simulated bf16 autocast region is the one it disables.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
from math import log2
import torch
from torch import nn, einsum
import torch.nn.functional as F

def entropy(prob, eps=1e-20):
    return (-prob * torch.log(prob.clamp(min=eps))).sum(dim=-1)

class LFQ(nn.Module):
    """stand-in for vector_quantize_pytorch.LFQ (1.12.9)"""
    def __init__(self, codebook_size, dim, entropy_loss_weight=0.1, commitment_loss_weight=0.25,
                 diversity_gamma=1.):
        super().__init__()
        codebook_dim = int(log2(codebook_size))
        self.dim = dim
        self.project_in = nn.Identity()
        self.project_out = nn.Identity()
        self.diversity_gamma = diversity_gamma
        self.entropy_loss_weight = entropy_loss_weight
        self.commitment_loss_weight = commitment_loss_weight
        self.register_buffer('mask', 2 ** torch.arange(codebook_dim - 1, -1, -1))
        self.register_buffer('zero', torch.tensor(0.), persistent=False)
        all_codes = torch.arange(codebook_size)
        bits = ((all_codes[..., None].int() & self.mask) != 0).float()
        self.register_buffer('codebook', bits * 2 - 1, persistent=False)

    @torch.autocast("cpu", enabled=False)   # library: @autocast(enabled = False) (torch.cuda.amp)
    def forward(self, x, inv_temperature=100.):
        x = self.project_in(x)
        original_input = x
        codebook_value = torch.ones_like(x)
        quantized = torch.where(x > 0, codebook_value, -codebook_value)
        if self.training:
            x = x + (quantized - x).detach()
        else:
            x = quantized
        indices = ((x > 0).int() * self.mask.int()).sum(dim=-1)
        if self.training:
            distance = -2 * einsum('... i d, j d -> ... i j', original_input, self.codebook)
            prob = (-distance * inv_temperature).softmax(dim=-1)
            prob = prob.reshape(-1, prob.shape[-1])
            per_sample_entropy = entropy(prob).mean()
            codebook_entropy = entropy(prob.mean(dim=0)).mean()
            entropy_aux_loss = per_sample_entropy - self.diversity_gamma * codebook_entropy
            commit_loss = F.mse_loss(original_input, quantized.detach())
        else:
            entropy_aux_loss = commit_loss = self.zero
        aux_loss = entropy_aux_loss * self.entropy_loss_weight + commit_loss * self.commitment_loss_weight
        return self.project_out(x), indices, aux_loss

encoder = nn.Sequential(nn.Linear(48, 64), nn.GELU(), nn.Linear(64, 10))
quantizer = LFQ(
    codebook_size = 2 ** 10,     # codebook size, must be a power of 2
    dim = 10,                    # this is the input feature dimension, defaults to log2(codebook_size) if not defined
    entropy_loss_weight = 0.1,   # how much weight to place on entropy loss
    diversity_gamma = 1.         # within entropy loss, how much weight to give to diversity of codes
)
patches = torch.randn(2, 64, 48)
'''
CELL = '''
with torch.autocast("cpu", dtype=torch.bfloat16):
    image_feats = encoder(patches)
    quantized, indices, entropy_aux_loss = quantizer(image_feats)
'''
EXPECT_ERROR = "expected scalar type"
CULPRITS = ["quantizer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""    def forward(self, x, inv_temperature=100.):
        x = self.project_in(x)""",
                  """    def forward(self, x, inv_temperature=100.):
        x = x.float()
        x = self.project_in(x)""")
CLEAN = False
