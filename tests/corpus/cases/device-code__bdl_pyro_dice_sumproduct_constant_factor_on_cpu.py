"""Pyro SS-VAE on CUDA with a sequentially enumerated label: `sumproduct` returns a CPU probability for an all-constant factor list, multiplied with the CUDA cost in `Dice.compute_expectation`.

Source: https://github.com/pyro-ppl/pyro/pull/1384
"Allow for device kwarg in sumproduct": "Needed to run examples on CUDA - sometimes prob is a CPU
tensor and cost is a CUDA tensor in `Dice.compute_expectation()` e.g. in `ss-vae`." When no DiCE
factor at an ordinal is a tensor, `sumproduct(factors, cost.shape)` builds
`torch.tensor(float(reduce(operator.mul, numbers, 1.))).expand(target_shape)` on the CPU, and the
expectation multiplies it with the CUDA cost. The merged fix gives `sumproduct` a `device` argument
used by that `torch.tensor(...)` and has `Dice.compute_expectation` call
`sumproduct(factors, cost.shape, device=cost.device)`. Stand-in: `sumproduct` (numbers/trivial
branch + naive product) with the `device=None` argument already there, so the bug is the call that
does not pass it; `Dice`
(__init__, `_get_log_factors`, `compute_expectation` without the opt_einsum sharing and the
`prob > 0` masking) and a TraceEnum_ELBO-like `loss` over a guide that enumerates `y` sequentially
and reparameterises `z`; the SS-VAE encoders/decoder reduced to linear layers.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import operator
from collections import defaultdict
from functools import reduce
from numbers import Number
import torch
from torch import nn

def is_identically_zero(x):
    return isinstance(x, Number) and x == 0

def torch_exp(x):
    return math.exp(x) if isinstance(x, Number) else x.exp()

def sumproduct(factors, target_shape=(), optimize=True, device=None):
    numbers = []
    tensors = []
    for t in factors:
        (numbers if isinstance(t, Number) else tensors).append(t)
    if not tensors:
        return torch.tensor(float(reduce(operator.mul, numbers, 1.)),
                            device=device).expand(target_shape)
    if numbers:
        number_part = reduce(operator.mul, numbers, 1.)
        tensor_part = sumproduct(tensors, target_shape, optimize=optimize, device=device)
        return tensor_part * number_part
    return reduce(operator.mul, tensors).expand(target_shape)

class Dice(object):
    def __init__(self, guide_trace, ordering):
        log_denom = defaultdict(float)
        log_probs = defaultdict(list)
        for name, site in guide_trace.items():
            log_prob = site["score_function"]
            ordinal = ordering[name]
            if site["infer"].get("enumerate") == "sequential":
                log_denom[ordinal] += math.log(site["infer"]["_enum_total"])
            else:
                if is_identically_zero(log_prob):
                    continue
                log_prob = log_prob - log_prob.detach()
            if not is_identically_zero(log_prob):
                log_probs[ordinal].append(log_prob)
        self.log_denom = log_denom
        self.log_probs = log_probs

    def _get_log_factors(self, target_ordinal):
        log_denom = 0
        for ordinal, term in self.log_denom.items():
            if not ordinal <= target_ordinal:
                log_denom += term
        log_factors = [] if is_identically_zero(log_denom) else [-log_denom]
        for ordinal, term in self.log_probs.items():
            if ordinal <= target_ordinal:
                log_factors += term
        return log_factors

    def compute_expectation(self, costs):
        factors_table = defaultdict(list)
        for ordinal in costs:
            for log_factor in self._get_log_factors(ordinal):
                factors_table[ordinal].append(torch_exp(log_factor))
        expected_cost = 0.
        for ordinal, cost_terms in costs.items():
            factors = factors_table.get(ordinal, [])
            for cost in cost_terms:
                prob = sumproduct(factors, cost.shape)
                expected_cost = expected_cost + (prob * cost).sum()
        return expected_cost

class SSVAE(nn.Module):
    """The ss-vae example's networks (encoder_y, encoder_z, decoder) reduced to linear maps."""
    def __init__(self, output_size=10, input_size=784, z_dim=50):
        super().__init__()
        self.output_size = output_size
        self.encoder_y = nn.Linear(input_size, output_size)
        self.encoder_z = nn.Linear(input_size + output_size, 2 * z_dim)
        self.decoder = nn.Linear(z_dim + output_size, input_size)

    def guide(self, xs, ys):
        alpha = torch.softmax(self.encoder_y(xs), dim=-1)
        loc, log_scale = self.encoder_z(torch.cat([xs, ys], -1)).chunk(2, -1)
        zs = loc + log_scale.exp() * torch.randn_like(loc)
        return {
            "y": {"value": ys, "score_function": 0., "infer": {"enumerate": "sequential", "_enum_total": self.output_size}},
            "z": {"value": zs, "score_function": 0., "infer": {}},
        }

    def model_costs(self, guide_trace, xs):
        zs, ys = guide_trace["z"]["value"], guide_trace["y"]["value"]
        logits = self.decoder(torch.cat([zs, ys], -1))
        log_px = -nn.functional.binary_cross_entropy_with_logits(logits, xs, reduction="none").sum(-1)
        log_pz = -0.5 * (zs ** 2).sum(-1)
        return {frozenset(): [log_px + log_pz]}

class TraceEnum_ELBO:
    """Stand-in: one sequential-enumeration branch of TraceEnum_ELBO.loss."""
    def loss(self, ss_vae, xs, ys):
        guide_trace = ss_vae.guide(xs, ys)
        costs = ss_vae.model_costs(guide_trace, xs)
        ordering = {name: frozenset() for name in guide_trace}
        return -Dice(guide_trace, ordering).compute_expectation(costs)

device = torch.device("cuda:0")
ss_vae = SSVAE().to(device)
xs = torch.rand(32, 784).round().to(device)
ys = nn.functional.one_hot(torch.arange(32) % 10, 10).float().to(device)   # one enumerated label value
elbo = TraceEnum_ELBO()
'''
CELL = '''
loss = elbo.loss(ss_vae, xs, ys)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["prob"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("prob = sumproduct(factors, cost.shape)",
                  "prob = sumproduct(factors, cost.shape, device=cost.device)")
CLEAN = False
