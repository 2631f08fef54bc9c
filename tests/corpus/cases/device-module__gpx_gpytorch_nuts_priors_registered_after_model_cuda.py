"""GPyTorch fully Bayesian GP on cuda: the priors are registered after `model.cuda()` and stay on the CPU.

Source: https://github.com/cornellius-gp/gpytorch/issues/1142
Following the "Fully Bayesian GPs - Sampling Hyperparameters with NUTS" example, the user moved
`train_x`, `train_y`, `likelihood` and `model` to cuda and only then called
`register_prior("lengthscale_prior", UniformPrior(0.01, 0.5), "lengthscale")` etc.; the priors are
new modules whose bounds are created on the CPU, so scoring the cuda hyperparameters under them
(`pyro_sample_from_prior` / the prior term) mixes devices. Moving the model (and likelihood) after
registering the priors puts the prior buffers on cuda too.
Stand-in: a Module-based UniformPrior with buffers, `register_prior` and the prior log-density
term of the NUTS model.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class UniformPrior(nn.Module):
    def __init__(self, a, b):
        super().__init__()
        self.register_buffer("low", torch.as_tensor(float(a)))
        self.register_buffer("high", torch.as_tensor(float(b)))
        self.register_buffer("width", torch.as_tensor([float(b) - float(a)]))

    def log_prob(self, x):
        return torch.zeros_like(x) - torch.log(self.width)

class GPModule(nn.Module):
    def register_prior(self, name, prior, param_name):
        self.add_module(name, prior)
        self._priors = getattr(self, "_priors", []) + [(name, param_name)]

    def prior_log_prob(self):
        total = 0.0
        for module in self.modules():
            for name, param_name in getattr(module, "_priors", []):
                total = total + getattr(module, name).log_prob(getattr(module, param_name)).sum()
        return total

class PeriodicKernel(GPModule):
    def __init__(self):
        super().__init__()
        self.lengthscale = nn.Parameter(torch.full((1, 1), 0.2))
        self.period_length = nn.Parameter(torch.full((1, 1), 1.0))

class ScaleKernel(GPModule):
    def __init__(self, base_kernel):
        super().__init__()
        self.base_kernel = base_kernel
        self.outputscale = nn.Parameter(torch.tensor([1.5]))

class ConstantMean(GPModule):
    def __init__(self):
        super().__init__()
        self.constant = nn.Parameter(torch.zeros(1))

class ExactGPModel(GPModule):
    def __init__(self, train_x, train_y, likelihood):
        super().__init__()
        self.train_inputs, self.train_targets, self.likelihood = (train_x,), train_y, likelihood
        self.mean_module = ConstantMean()
        self.covar_module = ScaleKernel(PeriodicKernel())

class GaussianLikelihood(GPModule):
    def __init__(self):
        super().__init__()
        self.noise = nn.Parameter(torch.tensor([0.1]))

train_x = torch.linspace(0, 1, 4).to("cuda:0")
train_y = torch.sin(train_x * 6.28)
likelihood = GaussianLikelihood()
model = ExactGPModel(train_x, train_y, likelihood)
likelihood.to("cuda:0")
model.to("cuda:0")

model.mean_module.register_prior("mean_prior", UniformPrior(-1, 1), "constant")
model.covar_module.base_kernel.register_prior("lengthscale_prior", UniformPrior(0.01, 0.5), "lengthscale")
model.covar_module.base_kernel.register_prior("period_length_prior", UniformPrior(0.05, 2.5), "period_length")
model.covar_module.register_prior("outputscale_prior", UniformPrior(1, 2), "outputscale")
likelihood.register_prior("noise_prior", UniformPrior(0.05, 0.3), "noise")
'''
CELL = '''
with torch.no_grad():
    log_prior = model.prior_log_prob() + likelihood.prior_log_prob()
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "found at least two devices")
CULPRITS = ["model.mean_module.mean_prior"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to("cuda:0")
likelihood.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
