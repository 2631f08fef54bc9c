"""voicebox-pytorch sampling after `.half()`: the vector quantizer casts its input to float32 against float16 codebooks.

Source: https://github.com/lucidrains/voicebox-pytorch/issues/22
The user trained `ConditionalFlowMatcherWrapper` with Lightning `precision=16`, then for sampling
called `.to('cuda:0').half()` on the model and the batch; `sample` failed with "expected scalar type
Half but found Float". The trace led into vector-quantize-pytorch's codebook: its forward computes
distances on `x.float()` (autocast disabled) while the codebook buffer `embed` had been halved by
`.half()`, so `cdist` got a float32 input and float16 codebooks. The hard-coded upcast must follow the
codebook's dtype (or the model be kept in float32 and run under autocast).
Stand-in: a EuclideanCodebook-shaped quantizer inside a small wrapper; CPU (dtype only; bfloat16
stands in for float16 so the CPU kernels exist).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

class EuclideanCodebook(nn.Module):
    def __init__(self, dim=16, codebook_size=32):
        super().__init__()
        self.register_buffer("embed", torch.randn(codebook_size, dim))

    def forward(self, x):
        x = x.float()
        dist = -torch.cdist(x, self.embed[None].expand(x.shape[0], -1, -1), p=2)
        embed_ind = dist.argmax(dim=-1)
        return self.embed[embed_ind], embed_ind

class ConditionalFlowMatcherWrapper(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.proj_in = nn.Linear(dim, dim)
        self.quantizer = EuclideanCodebook(dim)
        self.proj_out = nn.Linear(dim, dim)

    @torch.no_grad()
    def sample(self, cond, steps=2):
        x = torch.randn_like(cond)
        for _ in range(steps):
            quantized, _ = self.quantizer(self.proj_in(x + cond))
            x = x + 0.5 * self.proj_out(quantized.to(x.dtype))
        return x

model = ConditionalFlowMatcherWrapper().to(torch.bfloat16)    # .half() in the report
cond = torch.randn(2, 10, 16).to(torch.bfloat16)
'''
CELL = '''
sampled = model.sample(cond=cond)
'''
EXPECT_ERROR = ("expected scalar type", "same dtype", "should be the same", "expected both inputs")
CULPRITS = ["model.quantizer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        x = x.float()\n", "        x = x.to(self.embed.dtype)\n")
CLEAN = False
