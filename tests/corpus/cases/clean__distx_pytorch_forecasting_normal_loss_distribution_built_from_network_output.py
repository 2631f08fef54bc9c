"""pytorch-forecasting `NormalDistributionLoss` holds no tensors: every call builds `TransformedDistribution(Normal(x[..., 2], x[..., 3]), [AffineTransform(x[..., 0], x[..., 1]), ExpTransform()])` from the cuda network output.

Source: https://github.com/sktime/pytorch-forecasting/blob/main/pytorch_forecasting/metrics/distributions.py
`rescale_parameters` concatenates the batch's `target_scale` (cuda, from the dataloader batch moved
by Lightning) with `loc` and `softplus(scale)`; `map_x_to_distribution` slices the four columns back
out, and for a log-transformed target appends `TorchNormalizer.get_transform("log")["inverse_torch"]`
(`ExpTransform()`, parameterless). The loss object is not an nn.Module holding the distribution and
the distribution is rebuilt per call on the output's device: distribution objects created inside a
loss are fine here.
Stand-in: `NormalDistributionLoss.map_x_to_distribution`, `rescale_parameters` and
`DistributionLoss.loss` of pytorch-forecasting 1.0; the encoder reduced to its `transformation`
attribute; argument validation off.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import distributions
distributions.Distribution.set_default_validate_args(False)

TRANSFORMS = {"log": {"inverse_torch": distributions.ExpTransform()}}

class NormalDistributionLoss:
    distribution_class = distributions.Normal
    distribution_arguments = ["loc", "scale"]
    _transformation = None

    def map_x_to_distribution(self, x):
        distr = self.distribution_class(loc=x[..., 2], scale=x[..., 3])
        scaler = distributions.AffineTransform(loc=x[..., 0], scale=x[..., 1])
        if self._transformation is None:
            return distributions.TransformedDistribution(distr, [scaler])
        return distributions.TransformedDistribution(
            distr, [scaler, TRANSFORMS[self._transformation]["inverse_torch"]])

    def rescale_parameters(self, parameters, target_scale, encoder):
        self._transformation = encoder.transformation
        loc = parameters[..., 0]
        scale = F.softplus(parameters[..., 1])
        return torch.concat(
            [target_scale.unsqueeze(1).expand(-1, loc.size(1), -1), loc.unsqueeze(-1), scale.unsqueeze(-1)], dim=-1)

    def loss(self, y_pred, y_actual):
        distribution = self.map_x_to_distribution(y_pred)
        return -distribution.log_prob(y_actual)

class GroupNormalizer:
    transformation = "log"

loss_fn = NormalDistributionLoss()
network = torch.nn.Linear(24, 12 * 2).to("cuda:0")
x_enc = torch.randn(64, 24, device="cuda:0")
target_scale = torch.rand(64, 2, device="cuda:0") + 0.5
y_actual = torch.rand(64, 12, device="cuda:0") + 0.1
'''
CELL = '''
parameters = network(x_enc).view(64, 12, 2)
y_pred = loss_fn.rescale_parameters(parameters, target_scale, GroupNormalizer())
nll = loss_fn.loss(y_pred, y_actual).mean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
