"""scyan `PriorDistribution.prior_std` setter re-registers the `cov` buffer at the end of warm-up, building `torch.eye(...)` on the CPU and moving it with `.to(self.device)` before `prior_h` scores cuda latents.

Source: https://github.com/prism-oncology/scyan/blob/master/scyan/module/distribution.py
The setter runs again when warm-up ends (`self.module.prior.prior_std = self.hparams.prior_std` in
`Scyan.on_train_epoch_end`), i.e. after Lightning put the module on the GPU; since the GPU fix for
issue #23 it writes `cov = torch.eye((self.n_markers)) * std**2` and
`self.register_buffer("cov", cov.to(self.device))`. `prior_h` is a `MultivariateNormal(self.loc,
self.cov)` property rebuilt on each call, `self.normal = distributions.Normal(0, std)` holds python
floats, and `compute_constant_terms` multiplies a cuda buffer by a CPU 0-dim `gamma`: a CPU
`torch.eye`, a CPU scalar and distributions kept as attributes, all harmless.
Stand-in: `PriorDistribution` of that version with `LightningModule.device` replaced by the device
of the `rho` buffer, the NaN masking of `rho` written with `masked_fill_`/`torch.where` instead of
boolean-index assignment (same values); argument validation off.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn, Tensor, distributions
distributions.Distribution.set_default_validate_args(False)

class PriorDistribution(nn.Module):
    """Prior distribution U"""
    def __init__(self, rho: Tensor, is_continuum_marker: Tensor, prior_std: float, n_markers: int):
        super().__init__()
        self.n_markers = n_markers
        self.is_continuum_marker = is_continuum_marker
        self.register_buffer("rho", rho)
        self.register_buffer("loc", torch.zeros((n_markers)))
        self.set_rho_mask()
        self.prior_std = prior_std
        self.uniform = distributions.Uniform(-1, 1)

    @property
    def device(self):
        return self.rho.device

    @property
    def prior_std(self):
        return self._prior_std

    @prior_std.setter
    def prior_std(self, std: float) -> None:
        self._prior_std = std
        cov = torch.eye((self.n_markers)) * std**2
        self.register_buffer("cov", cov.to(self.device))
        self.normal = distributions.Normal(0, std)
        self.compute_constant_terms()

    def set_rho_mask(self) -> None:
        rho_mask = self.rho.isnan()
        self.rho.masked_fill_(rho_mask, 0)
        self.register_buffer("rho_mask", rho_mask)
        self.compute_modes()

    def compute_modes(self):
        self.factor = torch.where(self.is_continuum_marker, 5.0, 1.0)[None, None, :]
        self.register_buffer("modes", self.rho[None, ...] / self.factor)

    @property
    def prior_h(self) -> distributions.Distribution:
        return distributions.MultivariateNormal(self.loc, self.cov)

    def compute_constant_terms(self) -> None:
        self.uniform_law_radius = 1 - self.prior_std
        _gamma = self.uniform_law_radius / self.prior_std * torch.sqrt(2 / torch.tensor(torch.pi))
        self.gamma = 1 / (1 + _gamma)
        na_constant_term = self.rho_mask.sum(dim=1) * torch.log(self.gamma)
        self.register_buffer("na_constant_term", na_constant_term)

n_pop, n_markers = 6, 5
rho = torch.tensor([[1., -1., 0., 1., -1.]] * n_pop)
prior = PriorDistribution(rho, torch.tensor([False, False, True, False, False]), prior_std=0.3, n_markers=n_markers)
prior = prior.to("cuda:0")
h = torch.randn(128, n_markers, device="cuda:0")
'''
CELL = '''
prior.prior_std = 0.25           # end of warm-up, module already on the GPU
log_h = prior.prior_h.log_prob(h) + prior.na_constant_term.sum()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
