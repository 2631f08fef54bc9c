"""sbi's zuko flow with `z_score_x="transform_to_unconstrained"`: the prior's bijection sits behind a plain `CallableTransform` attribute, so `.to("cuda")` leaves its bounds on the CPU.

Source: https://github.com/sbi-dev/sbi/issues/1893
The fix for sbi#1893 ("zuko transform_to_unconstrained follows device moves"): "The unconstrained prior
transform is held behind a plain CallableTransform attribute inside the zuko Flow, so
nn.Module._apply never moved its tensors and .to("cuda")/.mps() left them on CPU." A MAF built
with `build_zuko_maf(..., z_score_x="transform_to_unconstrained", x_dist=prior)` for a `BoxUniform`
prior and then moved with `.to(device)` evaluates `log_prob` with the box bounds (the
`AffineTransform` inside `biject_to(prior.support)`) still on the CPU. sbi's fix keeps a reference
to the transform and moves its tensors with the estimator (an earlier patch in the same thread built
the transform's tensors on the target device).
Stand-in: sbi's `BoxUniform`, `mcmc_transform` (bounded branch), `biject_transform_zuko`,
`CallableTransform`, `ZukoFlow` and `build_zuko_maf`, and zuko's `Flow`/`UnconditionalTransform`
reduced to what `log_prob` uses; the masked autoregressive transform reduced to a context-conditioned
affine layer; `log_prob` takes `(batch, dim)` inputs; argument validation off.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn
from torch.distributions import Independent, Normal, Uniform, biject_to
from torch.distributions.transforms import AffineTransform

class BoxUniform(Independent):
    def __init__(self, low, high, reinterpreted_batch_ndims=1):
        super().__init__(Uniform(low, high, validate_args=False), reinterpreted_batch_ndims,
                         validate_args=False)

def mcmc_transform(prior, num_prior_samples_for_zscoring=1000, enable_transform=True, device="cpu"):
    # bounded support: map it to the real line (the branch sbi#1893 is about)
    transform = biject_to(prior.support)
    return transform.inv

class CallableTransform:
    def __init__(self, transform):
        self.transform = transform
    def __call__(self):
        return self.transform

class UnconditionalTransform(nn.Module):
    """zuko.lazy.UnconditionalTransform: tensor args become buffers, `f` stays a plain attribute."""
    def __init__(self, f, *args, buffer=False):
        super().__init__()
        self.f = f
        for i, arg in enumerate(args):
            self.register_buffer(f"_{i}", arg)
        self._nargs = len(args)
    def forward(self, c=None):
        return self.f(*[getattr(self, f"_{i}") for i in range(self._nargs)])

def biject_transform_zuko(transform):
    return UnconditionalTransform(CallableTransform(transform), buffer=True)

class MaskedAutoregressiveTransform(nn.Module):
    """Stand-in: a context-conditioned affine layer in place of zuko's MADE-based transform."""
    def __init__(self, features, context, hidden_features=(32, 32)):
        super().__init__()
        self.hyper = nn.Sequential(nn.Linear(context, hidden_features[0]), nn.ReLU(),
                                   nn.Linear(hidden_features[0], hidden_features[1]), nn.ReLU(),
                                   nn.Linear(hidden_features[1], 2 * features))
    def forward(self, c=None):
        shift, log_scale = self.hyper(c).chunk(2, dim=-1)
        return AffineTransform(shift, log_scale.exp(), event_dim=1)

class LazyComposedTransform(nn.Module):
    def __init__(self, *transforms):
        super().__init__()
        self.transforms = nn.ModuleList(transforms)
    def forward(self, c=None):
        return [t(c) for t in self.transforms]

class DiagNormalBase(nn.Module):
    def __init__(self, features):
        super().__init__()
        self.register_buffer("loc", torch.zeros(features))
        self.register_buffer("scale", torch.ones(features))
    def forward(self, c=None):
        return Independent(Normal(self.loc, self.scale, validate_args=False), 1, validate_args=False)

class NormalizingFlow:
    def __init__(self, transforms, base):
        self.transforms, self.base = transforms, base
    def log_prob(self, x):
        ladj = 0.0
        for t in self.transforms:
            y = t(x)
            ladj = ladj + t.log_abs_det_jacobian(x, y)
            x = y
        return self.base.log_prob(x) + ladj

class Flow(nn.Module):
    def __init__(self, transform, base):
        super().__init__()
        self.transform = LazyComposedTransform(*transform)
        self.base = base
    def forward(self, c=None):
        return NormalizingFlow(self.transform(c), self.base(c).expand(c.shape[:-1]))

class ZukoFlow(nn.Module):
    def __init__(self, net, embedding_net, input_shape, condition_shape):
        super().__init__()
        self.net = net
        self._embedding_net = embedding_net
        self.input_shape, self.condition_shape = input_shape, condition_shape
    def log_prob(self, input, condition):
        return self.net(self._embedding_net(condition)).log_prob(input)

def build_zuko_maf(batch_x, batch_y, z_score_x="independent", x_dist=None, hidden_features=32):
    x_numel, y_numel = batch_x[0].numel(), batch_y[0].numel()
    transforms = ()
    if z_score_x == "transform_to_unconstrained":
        transforms = (biject_transform_zuko(mcmc_transform(x_dist)),)
    transforms = transforms + (MaskedAutoregressiveTransform(x_numel, y_numel, (hidden_features,) * 2),)
    net = Flow(transforms, DiagNormalBase(x_numel))
    return ZukoFlow(net, nn.Identity(), input_shape=batch_x[0].shape, condition_shape=batch_y[0].shape)

device = "cuda:0"
prior = BoxUniform(low=-2 * torch.ones(2), high=2 * torch.ones(2))
theta, x = prior.sample((512,)), torch.randn(512, 3)
density_estimator = build_zuko_maf(theta, x, z_score_x="transform_to_unconstrained", x_dist=prior)
density_estimator.to(device)
theta_o = prior.sample((5,)).to(device)
x_o = torch.randn(5, 3).to(device)
'''
CELL = '''
log_probs = density_estimator.log_prob(theta_o, x_o)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["density_estimator.net.transform.transforms[0]"]
FIX = "namespace"
REFERENCE_FIX = '''
prior_on_device = BoxUniform(low=-2 * torch.ones(2, device=device), high=2 * torch.ones(2, device=device))
density_estimator.net.transform.transforms[0] = biject_transform_zuko(mcmc_transform(prior_on_device))
'''
REFERENCE_EDIT = None
CLEAN = False
