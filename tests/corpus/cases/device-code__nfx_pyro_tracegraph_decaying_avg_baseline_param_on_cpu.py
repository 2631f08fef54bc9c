"""Pyro `TraceGraph_ELBO` with `use_decaying_avg_baseline`: the baseline's running average is created as a param from `torch.tensor(0.0).expand(shape).clone()` on the CPU while the downstream costs are on cuda.

Source: https://github.com/pyro-ppl/pyro/pull/1132
"Allow use_decaying_avg_baseline for TraceGraph_ELBO to be used on GPU": in
`_compute_elbo_non_reparam`, a non-reparameterizable guide site with
`infer={"baseline": {"use_decaying_avg_baseline": True}}` initialises
`pyro.param("__baseline_avg_downstream_cost_<site>", torch.tensor(0.0).expand(dc_shape).clone())`,
a CPU tensor, and mixes it with the CUDA `downstream_cost`. The fix initialises it with
`guide_site['value'].new_zeros(dc_shape)`.
Stand-in: `_get_baseline_options` and `_compute_elbo_non_reparam` as in Pyro at the time; Pyro's
param store, tracing and `SVI.step` reduced to a dict store and a VAE-style guide with a Bernoulli
(non-reparameterizable) latent whose site dict carries `value`, `score_parts` and `infer`; the
downstream cost reduced to the per-element ELBO terms; argument validation off.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import types
import torch
import torch.nn as nn
from collections import namedtuple

class ParamStore(dict):
    def replace_param(self, name, new_param, old_param):
        self[name] = new_param

_param_store = ParamStore()

def _param(name, init_tensor=None):
    if name not in _param_store:
        _param_store[name] = init_tensor
    return _param_store[name]

pyro = types.SimpleNamespace(param=_param, get_param_store=lambda: _param_store)

ScoreParts = namedtuple("ScoreParts", ["log_prob", "score_function", "entropy_term"])

def detach_iterable(iterable):
    return [var.detach() for var in iterable]

def _get_baseline_options(site):
    options_dict = site["infer"].get("baseline", {}).copy()
    options_tuple = (options_dict.pop('nn_baseline', None),
                     options_dict.pop('nn_baseline_input', None),
                     options_dict.pop('use_decaying_avg_baseline', False),
                     options_dict.pop('baseline_beta', 0.90),
                     options_dict.pop('baseline_value', None))
    if options_dict:
        raise ValueError("Unrecognized baseline options: {}".format(options_dict.keys()))
    return options_tuple

def _compute_elbo_non_reparam(guide_trace, non_reparam_nodes, downstream_costs):
    surrogate_elbo = 0.0
    baseline_loss = 0.0
    for node in non_reparam_nodes:
        guide_site = guide_trace.nodes[node]
        downstream_cost = downstream_costs[node]
        baseline = 0.0
        (nn_baseline, nn_baseline_input, use_decaying_avg_baseline, baseline_beta,
            baseline_value) = _get_baseline_options(guide_site)
        use_nn_baseline = nn_baseline is not None
        use_baseline_value = baseline_value is not None
        assert(not (use_nn_baseline and use_baseline_value)), \\
            "cannot use baseline_value and nn_baseline simultaneously"
        if use_decaying_avg_baseline:
            dc_shape = downstream_cost.shape
            param_name = "__baseline_avg_downstream_cost_" + node
            with torch.no_grad():
                avg_downstream_cost_old = pyro.param(param_name,
                                                     torch.tensor(0.0).expand(dc_shape).clone())
                avg_downstream_cost_new = (1 - baseline_beta) * downstream_cost + \\
                    baseline_beta * avg_downstream_cost_old
            pyro.get_param_store().replace_param(param_name, avg_downstream_cost_new,
                                                 avg_downstream_cost_old)
            baseline += avg_downstream_cost_old
        if use_nn_baseline:
            baseline += nn_baseline(detach_iterable(nn_baseline_input))
        elif use_baseline_value:
            baseline += baseline_value
        if use_nn_baseline or use_baseline_value:
            baseline_loss += torch.pow(downstream_cost.detach() - baseline, 2.0).sum()

        score_function_term = guide_site["score_parts"].score_function
        if use_nn_baseline or use_decaying_avg_baseline or use_baseline_value:
            if downstream_cost.shape != baseline.shape:
                raise ValueError("Expected baseline at site {} to be {} instead got {}".format(
                    node, downstream_cost.shape, baseline.shape))
            downstream_cost = downstream_cost - baseline
        surrogate_elbo += (score_function_term * downstream_cost.detach()).sum()

    return surrogate_elbo, baseline_loss

class SBNVAE(nn.Module):
    """VAE with a Bernoulli (sigmoid belief net) latent layer."""
    def __init__(self, z_dim=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(784, 200), nn.Tanh(), nn.Linear(200, z_dim), nn.Sigmoid())
        self.decoder = nn.Sequential(nn.Linear(z_dim, 200), nn.Tanh(), nn.Linear(200, 784), nn.Sigmoid())
        self.z_dim = z_dim

    def guide(self, x):
        q = torch.distributions.Bernoulli(self.encoder(x), validate_args=False)
        z = q.sample()
        log_q = q.log_prob(z)
        site = {"type": "sample", "value": z,
                "score_parts": ScoreParts(log_q, log_q, 0.0),
                "infer": {"baseline": {"use_decaying_avg_baseline": True, "baseline_beta": 0.95}}}
        return types.SimpleNamespace(nodes={"z": site}), log_q

    def model(self, x, z):
        p_z = torch.distributions.Bernoulli(torch.full_like(z, 0.5), validate_args=False)
        p_x = torch.distributions.Bernoulli(self.decoder(z), validate_args=False)
        return p_z.log_prob(z), p_x.log_prob(x).sum(-1, keepdim=True)

class TraceGraph_ELBO:
    def loss_and_grads(self, model, guide, x):
        guide_trace, log_q = guide(x)
        z = guide_trace.nodes["z"]["value"]
        log_p_z, log_p_x = model(x, z)
        downstream_costs = {"z": (log_p_z + log_p_x - log_q).detach()}
        surrogate_elbo, baseline_loss = _compute_elbo_non_reparam(guide_trace, ["z"], downstream_costs)
        return -surrogate_elbo + baseline_loss

device = torch.device("cuda:0")
vae = SBNVAE().to(device)
elbo = TraceGraph_ELBO()
x = torch.bernoulli(torch.full((64, 784), 0.3)).to(device)
'''
CELL = '''
loss = elbo.loss_and_grads(vae.model, vae.guide, x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["_compute_elbo_non_reparam"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.tensor(0.0).expand(dc_shape).clone())", "guide_site['value'].new_zeros(dc_shape))")
CLEAN = False
