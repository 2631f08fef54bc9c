"""nflows `RandomPermutation` draws its permutation with `torch.randperm` on the CPU, but registers it as a buffer; after `.to("cuda")` the `index_select` index and the inverse `argsort` are on the GPU.

Source: https://github.com/bayesiains/nflows/blob/master/nflows/transforms/permutations.py
`Permutation.__init__` stores the index with `self.register_buffer("_permutation", permutation)`;
`_permute` calls `torch.index_select(inputs, dim, permutation)` and returns
`inputs.new_zeros(batch_size)` as log-det; `inverse` uses `torch.argsort(self._permutation)`. A
MAF-style stack `[RandomPermutation(features), ...]` built on the CPU and moved with
`flow.to(device)` therefore indexes CUDA inputs with a CUDA int64 index in both directions: a CPU
`randperm` index feeding `index_select` on cuda looks like a device-index bug, but is correct.
Stand-in: nflows' `Permutation`/`RandomPermutation` and `CompositeTransform` as in nflows today; an
element-wise affine transform in place of the autoregressive layers; `check.is_positive_int` inlined.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Transform(nn.Module):
    def forward(self, inputs, context=None):
        raise NotImplementedError()
    def inverse(self, inputs, context=None):
        raise NotImplementedError()

class CompositeTransform(Transform):
    def __init__(self, transforms):
        super().__init__()
        self._transforms = nn.ModuleList(transforms)

    @staticmethod
    def _cascade(inputs, funcs, context):
        batch_size = inputs.shape[0]
        outputs = inputs
        total_logabsdet = inputs.new_zeros(batch_size)
        for func in funcs:
            outputs, logabsdet = func(outputs, context)
            total_logabsdet += logabsdet
        return outputs, total_logabsdet

    def forward(self, inputs, context=None):
        return self._cascade(inputs, self._transforms, context)

    def inverse(self, inputs, context=None):
        funcs = (transform.inverse for transform in self._transforms[::-1])
        return self._cascade(inputs, funcs, context)

class Permutation(Transform):
    def __init__(self, permutation, dim=1):
        if permutation.ndimension() != 1:
            raise ValueError("Permutation must be a 1D tensor.")
        super().__init__()
        self._dim = dim
        self.register_buffer("_permutation", permutation)

    @property
    def _inverse_permutation(self):
        return torch.argsort(self._permutation)

    @staticmethod
    def _permute(inputs, permutation, dim):
        if dim >= inputs.ndimension():
            raise ValueError("No dimension {} in inputs.".format(dim))
        batch_size = inputs.shape[0]
        outputs = torch.index_select(inputs, dim, permutation)
        logabsdet = inputs.new_zeros(batch_size)
        return outputs, logabsdet

    def forward(self, inputs, context=None):
        return self._permute(inputs, self._permutation, self._dim)

    def inverse(self, inputs, context=None):
        return self._permute(inputs, self._inverse_permutation, self._dim)

class RandomPermutation(Permutation):
    def __init__(self, features, dim=1):
        super().__init__(torch.randperm(features), dim)

class ElementwiseAffine(Transform):
    def __init__(self, features):
        super().__init__()
        self.shift = nn.Parameter(torch.zeros(features))
        self.unconstrained_scale = nn.Parameter(torch.zeros(features))
    def forward(self, inputs, context=None):
        scale = torch.nn.functional.softplus(self.unconstrained_scale) + 1e-3
        return inputs * scale + self.shift, torch.log(scale).sum().expand(inputs.shape[0])
    def inverse(self, inputs, context=None):
        scale = torch.nn.functional.softplus(self.unconstrained_scale) + 1e-3
        return (inputs - self.shift) / scale, -torch.log(scale).sum().expand(inputs.shape[0])

num_layers = 3
transforms = []
for _ in range(num_layers):
    transforms.append(RandomPermutation(features=4))
    transforms.append(ElementwiseAffine(features=4))
transform = CompositeTransform(transforms)

device = torch.device("cuda:0")
transform = transform.to(device)
x = torch.randn(128, 4).to(device)
'''
CELL = '''
noise, logabsdet = transform(x)
x_rec, inv_logabsdet = transform.inverse(noise)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
