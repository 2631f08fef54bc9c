"""RLlib LinTS bandit on cuda: `OnlineLinearRegression.dist`, a `MultivariateNormal` built in `_init_params`, is not an nn.Module, so `.to()` leaves it on the CPU and Thompson-sampled `theta` meets cuda features.

Source: https://github.com/ray-project/ray/issues/14659
"MultivariateNormal's variable not sync (to or from cuda) within ...OnlineLinearRegression": the
model (its submodules) is moved to cuda by the torch policy, "However, the MultivariateNormal used
in the OnlineLinearRegression Model will not automatically moved because it is not an nn.Module,
which will cause the multiplication to fail because the `theta` tensor sampled from
MultivariateNormal is on cpu but the input `x` is on cuda." The distribution only follows the
parameters when it is built again from them (later RLlib rebuilds it with `_make_dist()` from
`self.theta` after each update); the reference fix rebuilds it from the moved parameters.
Stand-in: `OnlineLinearRegression` of rllib/contrib/bandits/models/linear_regression.py (commit
66be480) verbatim minus `partial_fit`/`get_ucbs`; `ParametricLinearModelThompsonSampling` without
the `TorchModelV2` base and gym spaces (feature_dim given directly); distribution argument
validation switched off globally (its checks read values, which the CPU simulation cannot).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn
from torch.distributions.multivariate_normal import MultivariateNormal
torch.distributions.Distribution.set_default_validate_args(False)   # no data-dependent checks in the simulation

class OnlineLinearRegression(nn.Module):
    def __init__(self, feature_dim, alpha=1, lambda_=1):
        super(OnlineLinearRegression, self).__init__()
        self.d = feature_dim
        self.alpha = alpha
        self.precision = nn.Parameter(data=lambda_ * torch.eye(self.d), requires_grad=False)
        self.f = nn.Parameter(data=torch.zeros(self.d, ), requires_grad=False)
        self.covariance = nn.Parameter(data=torch.inverse(self.precision), requires_grad=False)
        self.theta = nn.Parameter(data=self.covariance.matmul(self.f), requires_grad=False)
        self._init_params()

    def _init_params(self):
        self.update_schedule = 1
        self.delta_f = 0
        self.delta_b = 0
        self.time = 0
        self.covariance.mul_(self.alpha)
        self.dist = MultivariateNormal(self.theta, self.covariance)

    def sample_theta(self):
        theta = self.dist.sample()
        return theta

    def forward(self, x, sample_theta=False):
        self._check_inputs(x)
        theta = self.sample_theta() if sample_theta else self.theta
        scores = x @ theta
        return scores

    def _check_inputs(self, x, y=None):
        assert x.ndim in [2, 3]
        assert x.shape[1] == self.d

class ParametricLinearModelThompsonSampling(nn.Module):
    """Stand-in: RLlib's ParametricLinearModel(ThompsonSampling) without TorchModelV2/gym."""
    def __init__(self, feature_dim, alpha=1, lambda_=0.1):
        super().__init__()
        self.feature_dim = feature_dim
        self.arm = OnlineLinearRegression(feature_dim=self.feature_dim, alpha=alpha, lambda_=lambda_)
        self._cur_value = None
        self._cur_ctx = None

    def predict(self, x, sample_theta=False):
        self._cur_ctx = x
        scores = self.arm(x, sample_theta)
        self._cur_value = scores
        return scores

    def forward(self, input_dict, state=None, seq_lens=None):
        x = input_dict["obs"]["item"]
        x = x.squeeze(dim=0)
        scores = self.predict(x, sample_theta=True)
        return scores.unsqueeze(dim=0), state

device = torch.device("cuda:0")
model = ParametricLinearModelThompsonSampling(feature_dim=8).to(device)
input_dict = {"obs": {"item": torch.randn(1, 5, 8, device=device)}}
'''
CELL = '''
scores, _ = model(input_dict)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.arm.dist"]
FIX = "namespace"
REFERENCE_FIX = '''
model.arm.dist = MultivariateNormal(model.arm.theta, model.arm.covariance)
'''
REFERENCE_EDIT = None
CLEAN = False
