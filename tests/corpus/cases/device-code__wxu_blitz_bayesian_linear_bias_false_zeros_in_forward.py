"""BLiTZ `BayesianLinear(bias=False)` on the GPU: the zero bias is created in `forward` on the CPU.

Source: https://github.com/piEsposito/blitz-bayesian-deep-learning/issues/109
"when bias=False the zero bias tensor is not moved to gpu": with `bias=False`, `forward` builds
`b = torch.zeros((self.out_features))` on every call and passes it to `F.linear` with the CUDA input
and sampled CUDA weight. Agreed fix (maintainer and reporter): `torch.zeros((self.out_features),
device=x.device)`. Stand-in: BayesianLinear with TrainableRandomDistribution-like mu/rho sampling,
inside a `@variational_estimator`-style regressor.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

class BayesianLinear(nn.Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.bias = bias
        self.weight_mu = nn.Parameter(torch.zeros(out_features, in_features))
        self.weight_rho = nn.Parameter(torch.full((out_features, in_features), -7.0))
        if self.bias:
            self.bias_mu = nn.Parameter(torch.zeros(out_features))
            self.bias_rho = nn.Parameter(torch.full((out_features,), -7.0))
    def forward(self, x):
        w = self.weight_mu + torch.log1p(torch.exp(self.weight_rho)) * torch.randn_like(self.weight_mu)
        if self.bias:
            b = self.bias_mu + torch.log1p(torch.exp(self.bias_rho)) * torch.randn_like(self.bias_mu)
        else:
            b = torch.zeros((self.out_features))
        return F.linear(x, w, b)

class BayesianRegressor(nn.Module):
    def __init__(self, input_dim, output_dim):
        super().__init__()
        self.blinear1 = BayesianLinear(input_dim, 512, bias=False)
        self.blinear2 = BayesianLinear(512, output_dim, bias=False)
    def forward(self, x):
        return self.blinear2(F.relu(self.blinear1(x)))

device = torch.device("cuda:0")
regressor = BayesianRegressor(8, 1).to(device)
datapoints = torch.randn(16, 8, device=device)
'''
CELL = '''
with torch.no_grad():
    preds = torch.stack([regressor(datapoints) for _ in range(3)])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["regressor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("b = torch.zeros((self.out_features))",
                  "b = torch.zeros((self.out_features), device=x.device)")
CLEAN = False
