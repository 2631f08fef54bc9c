"""nflows `BatchNorm` transform returns `torch.sum(logabsdet_) * torch.ones(inputs.shape[0])`: the per-sample log-det is expanded with a CPU `ones`, so a flow on cuda fails in `BatchNorm.forward`.

Source: https://github.com/bayesiains/nflows/pull/9
"Fix sampling from distributions on a GPU" (the fix for nflows#8/#15): after the first commits made
`CompositeTransform._cascade` and the permutations device-aware, "More edits to use new_* methods to
infer the device" replaced the remaining `torch.ones(batch_size)` log-det expansions, among them
`BatchNorm.forward`/`inverse` in `nflows/transforms/normalization.py`
(`torch.sum(logabsdet_) * torch.ones(inputs.shape[0])` -> `... * inputs.new_ones(inputs.shape[0])`).
A MAF with a `BatchNorm` layer moved to the GPU multiplies the CUDA sum by a CPU vector.
Stand-in: nflows' `Flow`, `CompositeTransform` (already device-aware, as in the PR at that point),
`ReversePermutation`, `BatchNorm` and `StandardNormal` as in the PR branch; the masked autoregressive
transform reduced to an element-wise affine layer conditioned on nothing; the README's two-moons
setup with one layer.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

class Transform(nn.Module):
    def forward(self, inputs, context=None):
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

class ReversePermutation(Transform):
    def __init__(self, features, dim=1):
        super().__init__()
        self._dim = dim
        self.register_buffer("_permutation", torch.arange(features - 1, -1, -1))

    def forward(self, inputs, context=None):
        outputs = torch.index_select(inputs, self._dim, self._permutation)
        return outputs, inputs.new_zeros(inputs.shape[0])

class MaskedAffineAutoregressiveTransform(Transform):
    """Stand-in: element-wise affine layer (the MADE conditioner left out)."""
    def __init__(self, features, hidden_features):
        super().__init__()
        self.shift = nn.Parameter(torch.zeros(features))
        self.unconstrained_scale = nn.Parameter(torch.zeros(features))

    def forward(self, inputs, context=None):
        scale = torch.sigmoid(self.unconstrained_scale + 2.0) + 1e-3
        outputs = scale * inputs + self.shift
        return outputs, torch.sum(torch.log(scale)) * inputs.new_ones(inputs.shape[0])

class BatchNorm(Transform):
    def __init__(self, features, eps=1e-5, momentum=0.1, affine=True):
        super().__init__()

        self.momentum = momentum
        self.eps = eps
        constant = np.log(np.exp(1 - eps) - 1)
        self.unconstrained_weight = nn.Parameter(constant * torch.ones(features))
        self.bias = nn.Parameter(torch.zeros(features))

        self.register_buffer("running_mean", torch.zeros(features))
        self.register_buffer("running_var", torch.zeros(features))

    @property
    def weight(self):
        return F.softplus(self.unconstrained_weight) + self.eps

    def forward(self, inputs, context=None):
        if inputs.dim() != 2:
            raise ValueError(
                "Expected 2-dim inputs, got inputs of shape: {}".format(inputs.shape)
            )

        if self.training:
            mean, var = inputs.mean(0), inputs.var(0)
            self.running_mean.mul_(1 - self.momentum).add_(mean * self.momentum)
            self.running_var.mul_(1 - self.momentum).add_(var * self.momentum)
        else:
            mean, var = self.running_mean, self.running_var

        outputs = (
            self.weight * ((inputs - mean) / torch.sqrt((var + self.eps))) + self.bias
        )

        logabsdet_ = torch.log(self.weight) - 0.5 * torch.log(var + self.eps)
        logabsdet = torch.sum(logabsdet_) * torch.ones(inputs.shape[0])

        return outputs, logabsdet

class StandardNormal(nn.Module):
    def __init__(self, shape):
        super().__init__()
        self._shape = torch.Size(shape)
        self._log_z = 0.5 * np.prod(shape) * np.log(2 * np.pi)
        self.register_buffer("_dummy_buffer", torch.empty(0))

    def log_prob(self, inputs, context=None):
        neg_energy = -0.5 * (inputs ** 2).reshape(inputs.shape[0], -1).sum(-1)
        return neg_energy - self._log_z

class Flow(nn.Module):
    def __init__(self, transform, distribution, embedding_net=None):
        super().__init__()
        self._transform = transform
        self._distribution = distribution
        self._embedding_net = embedding_net if embedding_net is not None else nn.Identity()

    def log_prob(self, inputs, context=None):
        noise, logabsdet = self._transform(inputs, context=context)
        log_prob = self._distribution.log_prob(noise, context=context)
        return log_prob + logabsdet

device = torch.device("cuda:0")
flow = Flow(
    transform=CompositeTransform([
        ReversePermutation(features=2),
        MaskedAffineAutoregressiveTransform(features=2, hidden_features=4),
        BatchNorm(features=2),
    ]),
    distribution=StandardNormal(shape=[2]),
).to(device)
x = torch.randn(128, 2).to(device)
'''
CELL = '''
loss = -flow.log_prob(inputs=x).mean()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["flow._transform._transforms[2]"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("logabsdet = torch.sum(logabsdet_) * torch.ones(inputs.shape[0])", "logabsdet = torch.sum(logabsdet_) * inputs.new_ones(inputs.shape[0])")
CLEAN = False
