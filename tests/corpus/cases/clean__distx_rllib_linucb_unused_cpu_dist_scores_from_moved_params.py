"""RLlib LinUCB bandit on cuda: each `OnlineLinearRegression` arm still holds a `MultivariateNormal` built on the CPU in `__init__`, but the UCB path scores with `theta`/`covariance` parameters that `.to()` moved and never touches `self.dist`.

Source: https://github.com/ray-project/ray/blob/master/rllib/algorithms/bandit/bandit_torch_model.py
`OnlineLinearRegression.__init__` ends with `self.dist = self._make_dist()` (a
`MultivariateNormal(loc=self.theta, precision_matrix=self.precision)` that is not a module, so
`Module.to()` leaves it on the CPU). `DiscreteLinearModelUCB.forward` calls `predict(x,
sample_theta=False, use_ucb=True)`: scores are `x @ self.theta` and `get_ucbs` uses
`self.covariance`, both nn.Parameters on cuda; only Thompson sampling (`sample_theta=True`) would
read the stale distribution. A CPU distribution attribute on a cuda model, used nowhere on this
path: no finding.
Stand-in: `OnlineLinearRegression` (without `partial_fit`) and `DiscreteLinearModel(UCB)` without
the `TorchModelV2` base and gym spaces; argument validation off (its checks read values).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
torch.distributions.Distribution.set_default_validate_args(False)

class OnlineLinearRegression(nn.Module):
    def __init__(self, feature_dim, alpha=1, lambda_=1):
        super(OnlineLinearRegression, self).__init__()
        self.d = feature_dim
        self.alpha = alpha
        self.precision = nn.Parameter(data=lambda_ * torch.eye(self.d), requires_grad=False)
        self.covariance = nn.Parameter(data=torch.inverse(self.precision), requires_grad=False)
        self.f = nn.Parameter(data=torch.zeros(self.d,), requires_grad=False)
        self.theta = nn.Parameter(data=self.covariance.matmul(self.f), requires_grad=False)
        self._init_params()
        self.dist = self._make_dist()

    def _init_params(self):
        self.update_schedule = 1
        self.delta_f = 0
        self.delta_b = 0
        self.time = 0
        self.covariance.mul_(self.alpha)

    def _make_dist(self):
        return torch.distributions.multivariate_normal.MultivariateNormal(
            loc=self.theta, precision_matrix=self.precision)

    def sample_theta(self):
        return self.dist.sample()

    def get_ucbs(self, x):
        projections = self.covariance @ x.T
        batch_dots = (x * projections.T).sum(dim=-1)
        return batch_dots.sqrt()

    def forward(self, x, sample_theta=False):
        theta = self.sample_theta() if sample_theta else self.theta
        return x @ theta

class DiscreteLinearModelUCB(nn.Module):
    """Stand-in: DiscreteLinearModel + DiscreteLinearModelUCB without TorchModelV2/gym."""
    def __init__(self, feature_dim, num_outputs, alpha=1, lambda_=1):
        super().__init__()
        self.num_outputs = num_outputs
        self.arms = nn.ModuleList(
            [OnlineLinearRegression(feature_dim=feature_dim, alpha=alpha, lambda_=lambda_)
             for i in range(num_outputs)])
        self._cur_value = None
        self._cur_ctx = None

    def predict(self, x, sample_theta=False, use_ucb=False):
        self._cur_ctx = x
        scores = torch.stack([self.arms[i](x, sample_theta) for i in range(self.num_outputs)], dim=-1)
        if use_ucb:
            ucbs = torch.stack([self.arms[i].get_ucbs(x) for i in range(self.num_outputs)], dim=-1)
            scores += ucbs
        self._cur_value = scores
        return scores

    def forward(self, input_dict, state=None, seq_lens=None):
        x = input_dict["obs"]
        scores = self.predict(x, sample_theta=False, use_ucb=True)
        return scores, state

model = DiscreteLinearModelUCB(feature_dim=6, num_outputs=3).to("cuda:0")
input_dict = {"obs": torch.randn(16, 6, device="cuda:0")}
'''
CELL = '''
scores, _ = model(input_dict)
actions = scores.argmax(dim=-1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
