"""sbi NPSE on the GPU: the score estimator's `__init__` evaluates the marginal mean at `torch.tensor([t_max])`, a CPU tensor, against its `mean_0` buffer computed from GPU training data.

Source: https://github.com/sbi-dev/sbi/pull/1707
"Fix device mismatch in NPSE marginal mean/std computation" (closes #1686): "NPSE computes marginal
statistics using a `times` tensor. This tensor was constructed on CPU unconditionally, while other
buffers (like `mean_0`) could live on a different device. This led to a device mismatch error during
vector-field estimator initialization" when NPSE was used on a GPU. `ConditionalScoreEstimator`
registers `mean_0`/`std_0` (z-scoring statistics of the training `theta`) and then calls
`self.approx_marginal_mean(torch.tensor([t_max]))`; the PR creates the time on
`self.mean_0.device`. Stand-in: `ConditionalScoreEstimator`/`VPScoreEstimator` reduced to the
marginal-statistics code, a builder computing `mean_0`/`std_0` from the training batch, and NPSE's
`append_simulations`/`train` reduced to building the estimator.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn, Tensor

torch.distributions.Distribution.set_default_validate_args(False)   # value checks read fake tensors

class ConditionalScoreEstimator(nn.Module):
    def __init__(self, net, input_shape, condition_shape, mean_0=0.0, std_0=1.0, t_min=1e-3, t_max=1.0):
        if not isinstance(mean_0, Tensor):
            mean_0 = torch.tensor([mean_0])
        if not isinstance(std_0, Tensor):
            std_0 = torch.tensor([std_0])
        super().__init__()
        self.net, self.input_shape, self.condition_shape = net, input_shape, condition_shape
        self.t_min, self.t_max = t_min, t_max
        self.register_buffer("mean_0", mean_0.clone().detach())
        self.register_buffer("std_0", std_0.clone().detach())
        mean_t = self.approx_marginal_mean(torch.tensor([t_max]))
        std_t = self.approx_marginal_std(torch.tensor([t_max]))
        self._mean_base = torch.broadcast_to(mean_t, (1, *input_shape))
        self._std_base = torch.broadcast_to(std_t, (1, *input_shape))

    def approx_marginal_mean(self, times):
        return self.mean_t_fn(times) * self.mean_0

    def approx_marginal_std(self, times):
        var = self.mean_t_fn(times) ** 2 * self.std_0 ** 2 + self.std_fn(times) ** 2
        return torch.sqrt(var)

class VPScoreEstimator(ConditionalScoreEstimator):
    def __init__(self, net, input_shape, condition_shape, beta_min=0.01, beta_max=10.0, **kwargs):
        self.beta_min, self.beta_max = beta_min, beta_max
        super().__init__(net, input_shape, condition_shape, **kwargs)
    def mean_t_fn(self, times):
        phi = torch.exp(-0.25 * times ** 2.0 * (self.beta_max - self.beta_min) - 0.5 * times * self.beta_min)
        for _ in range(len(self.input_shape)):
            phi = phi.unsqueeze(-1)
        return phi
    def std_fn(self, times):
        std = 1.0 - torch.exp(-0.5 * times ** 2.0 * (self.beta_max - self.beta_min) - times * self.beta_min)
        for _ in range(len(self.input_shape)):
            std = std.unsqueeze(-1)
        return torch.sqrt(std)

def build_vp_score_estimator(batch_x, batch_y, hidden_features=64):
    mean_0, std_0 = batch_x.mean(0), batch_x.std(0)
    net = nn.Sequential(nn.Linear(batch_x.shape[1] + batch_y.shape[1] + 1, hidden_features), nn.GELU(),
                        nn.Linear(hidden_features, batch_x.shape[1]))
    return VPScoreEstimator(net, batch_x.shape[1:], batch_y.shape[1:], mean_0=mean_0, std_0=std_0)

class NPSE:
    def __init__(self, prior=None, sde_type="ve", device="cpu"):
        self._prior, self._device = prior, device
        self._build_neural_net = build_vp_score_estimator
        self._neural_net = None
    def append_simulations(self, theta, x):
        self._theta, self._x = theta, x
        return self
    def train(self, training_batch_size=200, max_num_epochs=1):
        if self._neural_net is None:
            self._neural_net = self._build_neural_net(self._theta[:training_batch_size], self._x[:training_batch_size])
        self._neural_net.to(self._device)
        return self._neural_net

device = "cuda:0"
num_dim = 3
prior = torch.distributions.Independent(torch.distributions.Uniform(-2 * torch.ones(num_dim), 2 * torch.ones(num_dim)), 1)
theta = prior.sample((1000,)).to(device)
x = (theta + 1.0 + 0.1 * torch.randn_like(theta))
inference = NPSE(prior=prior, sde_type="vp", device=device)
'''
CELL = '''
score_estimator = inference.append_simulations(theta, x).train()
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["inference"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        mean_t = self.approx_marginal_mean(torch.tensor([t_max]))
        std_t = self.approx_marginal_std(torch.tensor([t_max]))""",
                  """        mean_t = self.approx_marginal_mean(torch.tensor([t_max], device=self.mean_0.device))
        std_t = self.approx_marginal_std(torch.tensor([t_max], device=self.mean_0.device))""")
CLEAN = False
