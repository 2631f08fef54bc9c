"""sbi NPSE on cuda: `VectorFieldBasedPotential.gradient` defaults the diffusion time to `torch.tensor([t_min])` on the CPU and hands it to the cuda score estimator, whose marginal mean multiplies it with the cuda `mean_0` buffer.

Source: https://github.com/sbi-dev/sbi/issues/1649
"NPSE on GPUs?": "I cannot seem to be able to run NPSE on GPUs, as some internal variables seem to
be defined by default on CPUs: `return self.mean_t_fn(times) * x0` RuntimeError: Expected all
tensors to be on the same device, but found at least two devices, cuda:0 and cpu!". The fix (#1650,
"fix iid-score device handling") takes `device = theta.device` in
`VectorFieldBasedPotential.gradient` and passes `t=time.to(device)` to
`vector_field_estimator.score(...)`.
Stand-in: `VectorFieldBasedPotential.__init__`/`gradient` (non-iid branch, no neural ODE) and a
VP `ConditionalScoreEstimator` (`forward`, `score`, `approx_marginal_mean/std`, `mean_fn`,
`mean_t_fn`, `std_fn`) of sbi 0.25 with the score network reduced to an MLP on
(input, condition, time).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn, Tensor

class ScoreNet(nn.Module):
    def __init__(self, theta_dim=2, x_dim=3, hidden=32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(theta_dim + x_dim + 1, hidden), nn.GELU(), nn.Linear(hidden, theta_dim))
    def forward(self, input, condition, time):
        return self.mlp(torch.cat([input, condition, time[:, None]], dim=-1))

class VPScoreEstimator(nn.Module):
    """Stand-in for sbi's VPScoreEstimator (ConditionalScoreEstimator)."""
    SCORE_DEFINED = True

    def __init__(self, net, input_shape, condition_shape, mean_0, std_0, beta_min=0.01, beta_max=10.0,
                 t_min=1e-3, t_max=1.0):
        super().__init__()
        self.net = net
        self.input_shape = torch.Size(input_shape)
        self.condition_shape = torch.Size(condition_shape)
        self.beta_min, self.beta_max = beta_min, beta_max
        self.t_min, self.t_max = t_min, t_max
        self._embedding_net = nn.Identity()
        self.register_buffer("mean_0", mean_0.clone().detach())
        self.register_buffer("std_0", std_0.clone().detach())

    def mean_t_fn(self, times):
        phi = torch.exp(-0.25 * times**2.0 * (self.beta_max - self.beta_min) - 0.5 * times * self.beta_min)
        for _ in range(len(self.input_shape)):
            phi = phi.unsqueeze(-1)
        return phi

    def std_fn(self, times):
        std = 1.0 - torch.exp(-0.5 * times**2.0 * (self.beta_max - self.beta_min) - times * self.beta_min)
        for _ in range(len(self.input_shape)):
            std = std.unsqueeze(-1)
        return torch.sqrt(std)

    def mean_fn(self, x0, times):
        return self.mean_t_fn(times) * x0

    def approx_marginal_mean(self, times):
        return self.mean_fn(self.mean_0, times)

    def approx_marginal_std(self, times):
        var = self.mean_t_fn(times) ** 2 * self.std_0**2 + self.std_fn(times) ** 2
        return torch.sqrt(var)

    def forward(self, input, condition, time):
        batch_shape = torch.broadcast_shapes(input.shape[: -len(self.input_shape)],
                                             condition.shape[: -len(self.condition_shape)])
        condition_emb = self._embedding_net(condition)
        input = torch.broadcast_to(input, batch_shape + self.input_shape)
        condition_emb = torch.broadcast_to(condition_emb, batch_shape + condition_emb.shape[-1:])
        time = torch.broadcast_to(time, batch_shape)
        mean = self.approx_marginal_mean(time)
        std = self.approx_marginal_std(time)
        time_enc = self.std_fn(time)
        input_enc = (input - mean) / std
        score_gaussian = (input - mean) / std**2
        score_pred = self.net(input_enc, condition_emb, time_enc.reshape(-1))
        scale = self.mean_t_fn(time) / self.std_fn(time)
        return -scale * score_pred - score_gaussian

    def score(self, input, condition, t):
        return self(input=input, condition=condition, time=t)

class VectorFieldBasedPotential:
    """Stand-in for sbi.inference.potentials.vector_field_potential.VectorFieldBasedPotential."""
    def __init__(self, vector_field_estimator, prior, x_o=None, device="cpu"):
        self.vector_field_estimator = vector_field_estimator
        self.vector_field_estimator.eval()
        self.prior = prior
        self._x_o = x_o
        self.device = device
        self.x_is_iid = False

    @property
    def x_o(self):
        return self._x_o

    def gradient(self, theta, time=None, track_gradients=False):
        if not self.vector_field_estimator.SCORE_DEFINED:
            raise ValueError("Gradient is not available since the score is not defined.")

        if time is None:
            time = torch.tensor([self.vector_field_estimator.t_min])

        with torch.set_grad_enabled(track_gradients):
            if not self.x_is_iid or self._x_o.shape[0] == 1:
                score = self.vector_field_estimator.score(
                    input=theta, condition=self.x_o, t=time
                )
        return score

device = torch.device("cuda:0")
score_estimator = VPScoreEstimator(ScoreNet(), (2,), (3,), mean_0=torch.zeros(1, 2), std_0=torch.ones(1, 2)).to(device)
x_o = torch.randn(1, 3, device=device)
potential_fn = VectorFieldBasedPotential(score_estimator, prior=None, x_o=x_o, device=device)
theta = torch.randn(100, 2, device=device)
'''
CELL = '''
score = potential_fn.gradient(theta)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["potential_fn"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("input=theta, condition=self.x_o, t=time\n",
                  "input=theta, condition=self.x_o, t=time.to(theta.device)\n")
CLEAN = False
