"""nflows `CompositeTransform._cascade` starts `total_logabsdet` with `torch.zeros(batch_size)` on the CPU; the flow is on cuda.

Source: https://github.com/bayesiains/nflows/issues/15
"How to put flow to gpu?": a RealNVP-style `FlowModel(Flow)` moved with `flow = flow.to(device)`
(cuda:0) failed in `flow.transform_to_noise(z)` at `total_logabsdet += logabsdet` in
`nflows/transforms/base.py::_cascade` ("expected backend CUDA and dtype Float but got backend CPU").
The accumulator was created without a device; nflows#9 later made it `inputs.new_zeros(batch_size)`.
Stand-in: nflows' `Flow`/`CompositeTransform` structure with an affine coupling transform on flat
inputs (its feature split written as a mask) (the image-shaped model reduced to 6 features).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class Transform(nn.Module):
    def forward(self, inputs, context=None):
        raise NotImplementedError

class CompositeTransform(Transform):
    def __init__(self, transforms):
        super().__init__()
        self._transforms = nn.ModuleList(transforms)

    @staticmethod
    def _cascade(inputs, funcs, context):
        batch_size = inputs.shape[0]
        outputs = inputs
        total_logabsdet = torch.zeros(batch_size)
        for func in funcs:
            outputs, logabsdet = func(outputs, context)
            total_logabsdet += logabsdet
        return outputs, total_logabsdet

    def forward(self, inputs, context=None):
        return self._cascade(inputs, self._transforms, context)

class AffineCouplingTransform(Transform):
    def __init__(self, mask, transform_net_create_fn):
        super().__init__()
        self.register_buffer("mask", torch.tensor([float(m > 0) for m in mask]))
        self.transform_net = transform_net_create_fn(len(mask), 2 * len(mask))

    def forward(self, inputs, context=None):
        identity_split = inputs * (1 - self.mask)
        params = self.transform_net(identity_split)
        unconstrained_scale, shift = params.chunk(2, dim=-1)
        scale = torch.sigmoid(unconstrained_scale + 2) + 1e-3
        outputs = identity_split + self.mask * (inputs * scale + shift)
        return outputs, torch.sum(self.mask * torch.log(scale), dim=-1)

class StandardNormal(nn.Module):
    def __init__(self, shape):
        super().__init__()
        self._shape = torch.Size(shape)

class Flow(nn.Module):
    def __init__(self, transform, distribution, embedding_net=None):
        super().__init__()
        self._transform = transform
        self._distribution = distribution
        self._embedding_net = embedding_net if embedding_net is not None else nn.Identity()

    def transform_to_noise(self, inputs, context=None):
        noise, _ = self._transform(inputs, context=self._embedding_net(context) if context is not None else None)
        return noise

def create_net(in_features, out_features):
    return nn.Sequential(nn.Linear(in_features, 32), nn.ReLU(), nn.Linear(32, out_features))

class FlowModel(Flow):
    def __init__(self, features=6):
        mask = [1, -1] * (features // 2)
        super().__init__(
            transform=CompositeTransform([AffineCouplingTransform(mask, create_net),
                                          AffineCouplingTransform([-m for m in mask], create_net)]),
            distribution=StandardNormal((features,)),
        )

device = torch.device("cuda:0")
flow = FlowModel()
flow = flow.to(device)
z = torch.randn(32, 6).to(device)
'''
CELL = '''
noise = flow.transform_to_noise(z)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["flow"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("total_logabsdet = torch.zeros(batch_size)", "total_logabsdet = inputs.new_zeros(batch_size)")
CLEAN = False
