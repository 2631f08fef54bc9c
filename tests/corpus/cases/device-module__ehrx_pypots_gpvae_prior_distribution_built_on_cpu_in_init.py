"""PyPOTS GP-VAE on CUDA: the Gaussian-process prior is a distribution built in `__init__`, on the CPU.

Source: https://github.com/WenjieDu/PyPOTS/issues/200
"Run a instantiated GP-VAE on CUDA device(s)": the KL term between the encoder's posterior (on CUDA)
and `self.prior` fails, "a and b are not on the same device. a is on CUDA and b is on CPU."
`_GPVAE.__init__` precomputes `self.prior = self._init_prior()`, a `MultivariateNormal` made of
plain CPU tensors, which `Module.to(device)` never moves. The fix (commit 582fea13, PR #201) sets
`self.prior = None` in `__init__` and builds it lazily in `forward` with
`self._init_prior(device=x.device)`, creating `loc` and the covariance on that device.
Stand-in: PyPOTS 0.1.3 GP-VAE with the Cauchy kernel and one kernel scale, a diagonal Gaussian
encoder and a Gaussian decoder (the real encoder has a banded precision); distributions are built
with `validate_args=False` (their checks read values, which the CPU simulation cannot), and
`~m_mask` is written `m_mask.logical_not()`.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
from torch import nn


def cauchy_kernel(T, sigma, length_scale):
    xs = torch.arange(T).float()
    distance_matrix = (xs.unsqueeze(0) - xs.unsqueeze(1)) ** 2
    kernel_matrix = sigma / (distance_matrix / length_scale ** 2 + 1)
    return kernel_matrix + 0.001 * torch.eye(T)


class Encoder(nn.Module):
    def __init__(self, input_dim, latent_dim, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(input_dim, hidden), nn.ReLU(), nn.Linear(hidden, 2 * latent_dim))
        self.latent_dim = latent_dim

    def forward(self, x):
        mu, log_std = self.net(x).transpose(1, 2).chunk(2, dim=1)      # (B, latent, T) each
        scale = torch.nn.functional.softplus(log_std) + 1e-4
        return torch.distributions.MultivariateNormal(loc=mu, scale_tril=torch.diag_embed(scale),
                                                      validate_args=False)


class Decoder(nn.Module):
    def __init__(self, latent_dim, output_dim, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(latent_dim, hidden), nn.ReLU(), nn.Linear(hidden, output_dim))

    def forward(self, z):
        return torch.distributions.Normal(loc=self.net(z), scale=1.0, validate_args=False)


class _GPVAE(nn.Module):
    """Stand-in for pypots.imputation.gpvae.model._GPVAE (0.1.3)."""

    def __init__(self, input_dim, time_length, latent_dim, beta=1, M=1, K=1,
                 kernel="cauchy", sigma=1.0, length_scale=7.0, kernel_scales=1):
        super().__init__()
        self.kernel, self.sigma, self.length_scale = kernel, sigma, length_scale
        self.kernel_scales = kernel_scales
        self.input_dim, self.time_length, self.latent_dim = input_dim, time_length, latent_dim
        self.beta, self.M, self.K = beta, M, K
        self.encoder = Encoder(input_dim, latent_dim)
        self.decoder = Decoder(latent_dim, input_dim)

        # Precomputed KL components for efficiency
        self.prior = self._init_prior()

    def _init_prior(self):
        kernel_matrix = cauchy_kernel(self.time_length, self.sigma, self.length_scale)
        kernel_matrix_tiled = torch.unsqueeze(kernel_matrix, 0).repeat(self.latent_dim, 1, 1)
        prior = torch.distributions.MultivariateNormal(
            loc=torch.zeros(self.latent_dim, self.time_length),
            covariance_matrix=kernel_matrix_tiled,
            validate_args=False,
        )
        return prior

    def forward(self, inputs, training=True):
        x = inputs["X"]
        m_mask = inputs["missing_mask"]
        x = x.repeat(self.M * self.K, 1, 1)
        m_mask = m_mask.repeat(self.M * self.K, 1, 1).type(torch.bool)

        qz_x = self.encode(x)
        z = qz_x.rsample()
        px_z = self.decode(z)

        nll = -px_z.log_prob(x)
        nll = torch.where(torch.isfinite(nll), nll, torch.zeros_like(nll))
        nll = torch.where(m_mask, nll, torch.zeros_like(nll)).sum(dim=(1, 2))

        kl = self.kl_divergence(qz_x, self.prior)
        kl = torch.where(torch.isfinite(kl), kl, torch.zeros_like(kl)).sum(1)
        elbo = (-nll - self.beta * kl).mean()

        imputed_data = self.decode(self.encode(x).mean).mean * m_mask.logical_not() + x * m_mask   # ~m_mask
        if not training:
            return {"imputed_data": imputed_data}
        return {"loss": -elbo.mean(), "imputed_data": imputed_data}

    def encode(self, x):
        return self.encoder(x)

    def decode(self, z):
        return self.decoder(torch.transpose(z, 1, 2))

    @staticmethod
    def kl_divergence(a, b):
        return torch.distributions.kl.kl_divergence(a, b)


class GPVAE:
    """Stand-in for pypots.imputation.GPVAE (BaseNNImputer): holds the device and the nn.Module."""

    def __init__(self, n_steps, n_features, latent_size, device=None):
        self.n_steps, self.n_features = n_steps, n_features
        self.device = torch.device(device)
        self.model = _GPVAE(input_dim=n_features, time_length=n_steps, latent_dim=latent_size)
        self.model = self.model.to(self.device)

    def predict(self, test_set):
        X = test_set["X"]
        missing_mask = (~torch.isnan(X)).float()
        X = torch.nan_to_num(X)
        inputs = {"X": X.to(self.device), "missing_mask": missing_mask.to(self.device)}
        self.model.eval()
        with torch.no_grad():
            results = self.model(inputs, training=False)
        return {"imputation": results["imputed_data"]}


# PhysioNet-2012-like batch: 48 hourly steps, 37 vitals/labs, ~80% missing
X = torch.randn(16, 48, 37)
X = torch.where(torch.rand(16, 48, 37) < 0.8, torch.full_like(X, float("nan")), X)
test_set = {"X": X}
gp_vae = GPVAE(n_steps=48, n_features=37, latent_size=16, device="cuda:0")
'''
CELL = '''
results = gp_vae.predict(test_set)
imputation = results["imputation"]
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["gp_vae.model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''        self.prior = self._init_prior()

    def _init_prior(self):
        kernel_matrix = cauchy_kernel(self.time_length, self.sigma, self.length_scale)
        kernel_matrix_tiled = torch.unsqueeze(kernel_matrix, 0).repeat(self.latent_dim, 1, 1)
        prior = torch.distributions.MultivariateNormal(
            loc=torch.zeros(self.latent_dim, self.time_length),
            covariance_matrix=kernel_matrix_tiled,
            validate_args=False,
        )
        return prior

    def forward(self, inputs, training=True):
        x = inputs["X"]
''', '''        self.prior = None

    def _init_prior(self, device="cpu"):
        kernel_matrix = cauchy_kernel(self.time_length, self.sigma, self.length_scale)
        kernel_matrix_tiled = torch.unsqueeze(kernel_matrix, 0).repeat(self.latent_dim, 1, 1)
        prior = torch.distributions.MultivariateNormal(
            loc=torch.zeros(self.latent_dim, self.time_length, device=device),
            covariance_matrix=kernel_matrix_tiled.to(device),
            validate_args=False,
        )
        return prior

    def forward(self, inputs, training=True):
        x = inputs["X"]
        if self.prior is None:
            self.prior = self._init_prior(device=x.device)
''')
CLEAN = False
