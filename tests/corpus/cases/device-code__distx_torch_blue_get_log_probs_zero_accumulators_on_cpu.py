"""torch_blue `VIBaseModule.get_log_probs` starts its prior/variational log-prob sums from `torch.tensor([0.0])` on the CPU; a `VILinear` on cuda adds cuda sums to them.

Source: https://github.com/RAI-SCC/torch_blue/issues/15
"VIBaseModule.get_log_probs breaks on GPU": "variational_log_prob and prior_log_prob default to
initializing on cpu, which breaks the method with GPU eval". The fix (commit aa0c8e0, "Fix log_probs
aggregation on non-default devices") takes `device = sampled_params[0].device` and builds both
accumulators with `torch.tensor([0.0], device=device)`.
Stand-in: torch_blue's `VIBaseModule` (parameter creation, `get_variational_parameters`,
`sample_variables`, `get_log_probs`) and `VILinear.forward` of that time, with
`MeanFieldNormalVarDist` and `MeanFieldNormalPrior` verbatim; the `VIModule` auto-sampling
metaclass machinery and Kaiming rescaling left out (parameters initialised with constants).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from copy import deepcopy
from math import exp, log
import torch
from torch import nn, Tensor
from torch.nn import Parameter, init
from torch.nn import functional as F

class MeanFieldNormalVarDist:
    """Variational distribution with uncorrelated, normal distributions."""
    def __init__(self, initial_std=0.05):
        self.variational_parameters = ("mean", "log_std")
        self._default_variational_parameters = (0.0, log(initial_std))

    def sample(self, mean, log_std):
        std = torch.exp(log_std)
        base_sample = torch.normal(torch.zeros_like(mean), torch.ones_like(mean))
        return std * base_sample + mean

    def log_prob(self, sample, mean, log_std):
        variance = torch.exp(log_std) ** 2
        data_fitting = (sample - mean) ** 2 / variance
        normalization = 2 * log_std + log(2 * torch.pi)
        return -0.5 * (data_fitting + normalization)

class MeanFieldNormalPrior:
    """Prior assuming uncorrelated, normal distributed parameters."""
    _required_parameters = ()

    def __init__(self, mean=0.0, std=1.0):
        self.distribution_parameters = ("mean", "log_std")
        self.mean = mean
        self.log_std = log(std)

    @property
    def std(self):
        return exp(self.log_std)

    def log_prob(self, sample):
        variance = self.std ** 2
        data_fitting = (sample - self.mean) ** 2 / variance
        normalization = 2 * self.log_std + log(2 * torch.pi)
        return -0.5 * (data_fitting + normalization)

class VIBaseModule(nn.Module):
    """Stand-in for torch_blue's vi.base.VIBaseModule (before commit aa0c8e0)."""
    random_variables = ("weight", "bias")

    def __init__(self, variable_shapes, variational_distribution, prior, return_log_probs=True):
        super().__init__()
        self.variational_distribution = [deepcopy(variational_distribution) for _ in self.random_variables]
        self.prior = [deepcopy(prior) for _ in self.random_variables]
        self._return_log_probs = return_log_probs
        for variable, vardist in zip(self.random_variables, self.variational_distribution):
            shape = variable_shapes[variable]
            for variational_parameter, default in zip(vardist.variational_parameters,
                                                      vardist._default_variational_parameters):
                setattr(self, self.variational_parameter_name(variable, variational_parameter),
                        Parameter(torch.full(shape, default)))

    @staticmethod
    def variational_parameter_name(variable, variational_parameter):
        return "_".join(["", variable, variational_parameter])

    def get_variational_parameters(self, variable):
        vardist = self.variational_distribution[self.random_variables.index(variable)]
        return [getattr(self, self.variational_parameter_name(variable, param))
                for param in vardist.variational_parameters]

    def get_log_probs(self, sampled_params):
        """Get prior and variational log prob of the sampled parameters."""
        variational_log_prob = torch.tensor([0.0])
        prior_log_prob = torch.tensor([0.0])
        for sample, variable, vardist, prior in zip(
            sampled_params, self.random_variables, self.variational_distribution, self.prior
        ):
            variational_parameters = self.get_variational_parameters(variable)
            variational_log_prob = (
                variational_log_prob + vardist.log_prob(sample, *variational_parameters).sum()
            )
            prior_params = [getattr(self, self.variational_parameter_name(variable, param))
                            for param in prior._required_parameters]
            prior_log_prob = prior_log_prob + prior.log_prob(sample, *prior_params).sum()
        return torch.cat([prior_log_prob, variational_log_prob])

    def sample_variables(self):
        params = []
        for variable, vardist in zip(self.random_variables, self.variational_distribution):
            params.append(vardist.sample(*self.get_variational_parameters(variable)))
        return params

class VILinear(VIBaseModule):
    """Equivalent of nn.Linear with variational inference."""
    def __init__(self, in_features, out_features, variational_distribution=MeanFieldNormalVarDist(),
                 prior=MeanFieldNormalPrior(), return_log_probs=True):
        self.in_features = in_features
        self.out_features = out_features
        super().__init__(dict(weight=(out_features, in_features), bias=(out_features,)),
                         variational_distribution, prior, return_log_probs)

    def forward(self, input_):
        params = self.sample_variables()
        output = F.linear(input_, *params)
        if self._return_log_probs:
            log_probs = self.get_log_probs(params)
            return output, log_probs
        return output

device = torch.device("cuda:0")
model = VILinear(784, 10).to(device)
x = torch.randn(64, 784, device=device)
'''
CELL = '''
model.eval()
out, log_probs = model(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        variational_log_prob = torch.tensor([0.0])
        prior_log_prob = torch.tensor([0.0])""",
                  """        device = sampled_params[0].device
        variational_log_prob = torch.tensor([0.0], device=device)
        prior_log_prob = torch.tensor([0.0], device=device)""")
CLEAN = False
