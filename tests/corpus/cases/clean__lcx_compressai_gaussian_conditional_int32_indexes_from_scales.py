"""CompressAI GaussianConditional on cuda: float scales, a float scale_table buffer and int32 CDF indexes mixed by design.

Source: https://github.com/InterDigitalInc/CompressAI/blob/master/compressai/entropy_models/entropy_models.py
`GaussianConditional.build_indexes(scales)` clamps the scales with a LowerBound module, starts from
`scales.new_full(scales.size(), len(self.scale_table) - 1).int()` and decrements it for every
entry of the float `scale_table` buffer; `_quantized_cdf`, `_offset`, `_cdf_length` are int32
buffers. Look-alike: int32 tensors beside float ones in an entropy model on the GPU, all made
with `new_full`/buffers on the scales' device. Stand-in: the forward likelihood and build_indexes; meta stands for the GPU, and the scale
table is computed with `math` rather than `torch.linspace`.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

class LowerBound(nn.Module):
    def __init__(self, bound):
        super().__init__()
        self.register_buffer("bound", torch.Tensor([float(bound)]))

    def forward(self, x):
        return torch.max(x, self.bound)

def get_scale_table(min=0.11, max=256, levels=64):
    step = (math.log(max) - math.log(min)) / (levels - 1)
    return [math.exp(math.log(min) + i * step) for i in range(levels)]   # torch.exp(torch.linspace(...))

class GaussianConditional(nn.Module):
    def __init__(self, scale_table, scale_bound=0.11, likelihood_bound=1e-9):
        super().__init__()
        self.register_buffer("scale_table", torch.Tensor(tuple(float(s) for s in scale_table)))
        self.register_buffer("_quantized_cdf", torch.IntTensor())
        self.register_buffer("_offset", torch.IntTensor())
        self.register_buffer("_cdf_length", torch.IntTensor())
        self.lower_bound_scale = LowerBound(scale_bound)
        self.likelihood_lower_bound = LowerBound(likelihood_bound)

    def _standardized_cumulative(self, inputs):
        return 0.5 * torch.erfc(-(2 ** -0.5) * inputs)

    def _likelihood(self, inputs, scales, means=None):
        values = inputs - means if means is not None else inputs
        scales = self.lower_bound_scale(scales)
        values = torch.abs(values)
        upper = self._standardized_cumulative((0.5 - values) / scales)
        lower = self._standardized_cumulative((-0.5 - values) / scales)
        return upper - lower

    def forward(self, inputs, scales, means=None):
        outputs = torch.round(inputs - means) + means if means is not None else torch.round(inputs)
        likelihood = self.likelihood_lower_bound(self._likelihood(outputs, scales, means))
        return outputs, likelihood

    def build_indexes(self, scales):
        scales = self.lower_bound_scale(scales)
        indexes = scales.new_full(scales.size(), len(self.scale_table) - 1).int()
        for s in self.scale_table[:-1]:
            indexes -= (scales <= s).int()
        return indexes

gaussian_conditional = GaussianConditional(get_scale_table()).to("meta")
y = torch.randn(1, 8, 4, 4, device="meta") * 3
scales_hat = torch.rand(1, 8, 4, 4, device="meta") * 5
means_hat = torch.randn(1, 8, 4, 4, device="meta")
'''
CELL = '''
y_hat, y_likelihoods = gaussian_conditional(y, scales_hat, means=means_hat)
indexes = gaussian_conditional.build_indexes(scales_hat)
print(y_likelihoods.dtype, indexes.dtype, indexes.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
