"""Pyro `EmpiricalMarginal` of an MCMC run on GPU 1: the default log-weights are typed to the device *type* and land on cuda:0.

Source: https://github.com/pyro-ppl/pyro/pull/1762
"Fix EmpiricalMarginal with multiple GPUs": `_add_sample` converted each log weight with
`torch.tensor(log_weight).type(weight_type)`, where `weight_type = value.type()` is
'torch.cuda.FloatTensor' — "which puts the `log_weight` tensor on the correct device **type**, but
not necessarily the correct device. Hence, if you run MCMC on GPU1, and try to sample from the
resulting marginal, a device mismatch error will occur." The merged fix builds the weights with
`device=samples.device`. Stand-in: `Empirical` (Categorical over the log weights + `gather`) and
`EmpiricalMarginal._add_sample` as in pyro 0.3.1; the legacy `.type('torch.cuda.FloatTensor')` is
written as a move to the current CUDA device (cuda:0), which is what it did; the MCMC run is a
`TracePosterior`-like object holding the sampled site values on cuda:1 and their (zero) log weights.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import numbers
from collections import defaultdict
import torch
from torch.distributions import Categorical

torch.distributions.Distribution.set_default_validate_args(False)

class Empirical:
    """Stand-in for pyro.distributions.Empirical (pyro 0.3.1)."""
    def __init__(self, samples, log_weights, validate_args=None):
        self._samples = samples
        self._log_weights = log_weights
        self._aggregation_dim = log_weights.dim() - 1
        self.batch_shape = log_weights.shape[:-1]
        self.event_shape = samples.shape[log_weights.dim():]
        self._categorical = Categorical(logits=self._log_weights)

    def sample(self, sample_shape=torch.Size()):
        sample_shape = torch.Size(sample_shape)
        sample_idx = self._categorical.sample(sample_shape)
        samples = self._samples
        sample_idx = sample_idx.reshape((-1,) + self.batch_shape + (1,) * len(self.event_shape))
        sample_idx = sample_idx.expand((-1,) + samples.shape[1:])
        return samples.gather(0, sample_idx).reshape(sample_shape + samples.shape[1:])

class EmpiricalMarginal(Empirical):
    """Stand-in for pyro.infer.abstract_infer.EmpiricalMarginal (pyro 0.3.1)."""
    def __init__(self, trace_posterior, sites=None, validate_args=None):
        if sites is None:
            sites = "_RETURN"
        self._validate_args = validate_args
        self._num_chains = 1
        self._samples_buffer = defaultdict(list)
        self._weights_buffer = defaultdict(list)
        self._populate_traces(trace_posterior, sites)
        samples, weights = self._get_samples_and_weights()
        super().__init__(samples, weights, validate_args=validate_args)

    def _get_samples_and_weights(self):
        samples = torch.stack(self._samples_buffer[0], dim=0)
        weights = torch.stack(self._weights_buffer[0], dim=0)
        return samples, weights

    def _add_sample(self, value, log_weight=None, chain_id=0):
        # weight_type = value.type(): 'torch.cuda.FloatTensor' -> the *current* CUDA device (cuda:0)
        weight_device = torch.device(value.device.type, 0)
        if log_weight is None:
            log_weight = 0.0
        if isinstance(log_weight, numbers.Number):
            log_weight = torch.tensor(log_weight).to(weight_device)
        self._samples_buffer[chain_id].append(value)
        self._weights_buffer[chain_id].append(log_weight)

    def _populate_traces(self, trace_posterior, sites):
        for tr, log_weight, chain_id in zip(trace_posterior.exec_traces,
                                            trace_posterior.log_weights,
                                            trace_posterior.chain_ids):
            self._add_sample(tr[sites], log_weight=log_weight, chain_id=chain_id)

class MCMCRun:
    """Stand-in for the TracePosterior returned by MCMC(...).run(...): one trace per sample."""
    def __init__(self, site_samples):
        self.exec_traces = [{"beta": s} for s in site_samples]
        self.log_weights = [0.0] * len(site_samples)
        self.chain_ids = [0] * len(site_samples)

device = torch.device("cuda:1")
posterior = MCMCRun([torch.randn(3, device=device) for _ in range(50)])   # NUTS on GPU 1
marginal = EmpiricalMarginal(posterior, sites="beta")
'''
CELL = '''
beta_samples = marginal.sample((100,))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["marginal"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("log_weight = torch.tensor(log_weight).to(weight_device)",
                  "log_weight = torch.tensor(log_weight, device=value.device)")
CLEAN = False
