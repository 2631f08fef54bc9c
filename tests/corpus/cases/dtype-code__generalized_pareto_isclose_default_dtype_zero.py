"""`GeneralizedPareto.log_prob` on float64 parameters: it compares the concentration with a default-dtype `torch.tensor(0.0)`.

Source: https://github.com/pytorch/pytorch/issues/198185
"GeneralizedPareto.log_prob and cdf raise 'Double did not match Float' for float64 parameters under
the default float32 dtype": `log_prob` (and `log_survival_function`) test
`torch.isclose(self.concentration, torch.tensor(0.0))`; that scalar is float32, so a distribution
built from float64 parameters cannot be scored. `rsample`/`icdf` already use
`torch.zeros_like(concentration)`; the report's fix does the same. Stand-in: the distribution's
`log_prob` path (validation left out).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import torch

class GeneralizedPareto:
    """torch.distributions.GeneralizedPareto, log_prob path (reduced)."""
    def __init__(self, loc, scale, concentration):
        self.loc, self.scale, self.concentration = torch.broadcast_tensors(loc, scale, concentration)

    def _z(self, x):
        return (x - self.loc) / self.scale

    def log_prob(self, value):
        z = self._z(value)
        eq_zero = torch.isclose(self.concentration, torch.tensor(0.0))
        safe_conc = torch.where(eq_zero, torch.ones_like(self.concentration), self.concentration)
        y = 1 / safe_conc + torch.ones_like(z)
        where_nonzero = torch.where(y == 0, y, y * torch.log1p(safe_conc * z))
        return -self.scale.log() - torch.where(eq_zero, z, where_nonzero)

d = GeneralizedPareto(
    torch.tensor(0.0, dtype=torch.float64),
    torch.tensor(1.0, dtype=torch.float64),
    torch.tensor(0.3, dtype=torch.float64),
)
'''
CELL = '''
lp = d.log_prob(torch.tensor(0.5, dtype=torch.float64))
'''
EXPECT_ERROR = "Double did not match Float"
CULPRITS = ["d"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "torch.isclose(self.concentration, torch.tensor(0.0))",
    "torch.isclose(self.concentration, torch.zeros_like(self.concentration))",
)
CLEAN = False
