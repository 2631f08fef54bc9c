"""torch_blue `VISequential` starts its running (prior, variational) log-prob total with `torch.tensor([0.0, 0.0], device=input_.device)` and each `VILinear` starts its own sums on the device of its sampled weights.

Source: https://github.com/RAI-SCC/torch_blue/blob/main/vi/sequential.py
(and vi/base.py `VIBaseModule.get_log_probs` after commit aa0c8e0). Accumulators created inside
`forward` from Python floats look like the classic "tensor made without a device" bug, but both
take the device explicitly: the container from its input, the layer from `sampled_params[0]`.
Stand-in: `VISequential.forward` and `VIBaseModule`/`VILinear` (parameter creation, sampling,
`get_log_probs`) of that version, `MeanFieldNormalVarDist`/`MeanFieldNormalPrior` verbatim; the
`VIModule` post-init metaclass and auto-sampling machinery left out.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from copy import deepcopy
from math import exp, log
import torch
from torch import nn
from torch.nn import Parameter
from torch.nn import functional as F

class MeanFieldNormalVarDist:
    def __init__(self, initial_std=0.05):
        self.variational_parameters = ("mean", "log_std")
        self._default_variational_parameters = (0.0, log(initial_std))

    def sample(self, mean, log_std):
        std = torch.exp(log_std)
        return std * torch.normal(torch.zeros_like(mean), torch.ones_like(mean)) + mean

    def log_prob(self, sample, mean, log_std):
        variance = torch.exp(log_std) ** 2
        return -0.5 * ((sample - mean) ** 2 / variance + 2 * log_std + log(2 * torch.pi))

class MeanFieldNormalPrior:
    _required_parameters = ()
    def __init__(self, mean=0.0, std=1.0):
        self.mean = mean
        self.log_std = log(std)

    def log_prob(self, sample):
        variance = exp(self.log_std) ** 2
        return -0.5 * ((sample - self.mean) ** 2 / variance + 2 * self.log_std + log(2 * torch.pi))

class VIModule(nn.Module):
    _return_log_probs = True

class VIBaseModule(VIModule):
    random_variables = ("weight", "bias")

    def __init__(self, variable_shapes, variational_distribution, prior):
        super().__init__()
        self.variational_distribution = [deepcopy(variational_distribution) for _ in self.random_variables]
        self.prior = [deepcopy(prior) for _ in self.random_variables]
        for variable, vardist in zip(self.random_variables, self.variational_distribution):
            for name, default in zip(vardist.variational_parameters, vardist._default_variational_parameters):
                setattr(self, "_".join(["", variable, name]), Parameter(torch.full(variable_shapes[variable], default)))

    def get_variational_parameters(self, variable):
        vardist = self.variational_distribution[self.random_variables.index(variable)]
        return [getattr(self, "_".join(["", variable, p])) for p in vardist.variational_parameters]

    def get_log_probs(self, sampled_params):
        device = sampled_params[0].device
        variational_log_prob = torch.tensor([0.0], device=device)
        prior_log_prob = torch.tensor([0.0], device=device)
        for sample, variable, vardist, prior in zip(
            sampled_params, self.random_variables, self.variational_distribution, self.prior
        ):
            variational_log_prob = (
                variational_log_prob + vardist.log_prob(sample, *self.get_variational_parameters(variable)).sum()
            )
            prior_log_prob = prior_log_prob + prior.log_prob(sample).sum()
        return torch.cat([prior_log_prob, variational_log_prob])

    def sample_variables(self):
        return [vardist.sample(*self.get_variational_parameters(variable))
                for variable, vardist in zip(self.random_variables, self.variational_distribution)]

class VILinear(VIBaseModule):
    def __init__(self, in_features, out_features):
        super().__init__(dict(weight=(out_features, in_features), bias=(out_features,)),
                         MeanFieldNormalVarDist(), MeanFieldNormalPrior())

    def forward(self, input_):
        params = self.sample_variables()
        output = F.linear(input_, *params)
        return output, self.get_log_probs(params)

class VISequential(VIModule, nn.Sequential):
    def forward(self, input_):
        if self._return_log_probs:
            total_log_probs = torch.tensor([0.0, 0.0], device=input_.device)
            for module in self:
                if isinstance(module, VIModule):
                    input_, log_probs = module(input_)
                    total_log_probs = total_log_probs + log_probs
                else:
                    input_ = module(input_)
            return input_, total_log_probs
        for module in self:
            input_ = module(input_)
        return input_

model = VISequential(VILinear(784, 64), nn.ReLU(), VILinear(64, 10)).to("cuda:0")
x = torch.randn(32, 784, device="cuda:0")
'''
CELL = '''
out, log_probs = model(x)
prior_log_prob, variational_log_prob = log_probs.chunk(2)
kl_estimate = (variational_log_prob - prior_log_prob).sum()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
