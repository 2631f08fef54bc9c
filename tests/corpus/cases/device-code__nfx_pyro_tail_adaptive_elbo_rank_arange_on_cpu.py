"""Pyro `TraceTailAdaptive_ELBO` ranks the particles with `torch.index_select(torch.arange(num_particles) + 1, -1, rank)`; the `arange` is on the CPU, `rank` on cuda.

Source: https://github.com/pyro-ppl/pyro/pull/1860
"Fix device for TraceTailAdaptive_ELBO": training a guide on the GPU with the tail-adaptive
f-divergence objective failed in `_differentiable_loss_particle`, where the particle ranks are
looked up from `torch.arange(self.num_particles) + 1` created without a device while `rank` comes
from `torch.argsort(log_pq)` of the CUDA log densities. The fix creates the `arange` with
`device=log_pq.device`.
Stand-in: the method as in Pyro at the time; Pyro's tracing reduced to a minimal vectorized
`model`/`guide` pair (an amortized Normal guide and a Bernoulli decoder, VAE style) whose sample
sites are recorded in plain dict "traces" with their `log_prob`s; the MNIST batch replaced by random
binary pixels on cuda.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import warnings
import torch
import torch.nn as nn

class Trace_ELBO:
    def __init__(self, num_particles=1, vectorize_particles=False, tail_adaptive_beta=-1.0):
        self.num_particles = num_particles
        self.vectorize_particles = vectorize_particles
        self.tail_adaptive_beta = tail_adaptive_beta

    def _get_traces(self, model, guide, *args, **kwargs):
        # stand-in for Pyro's vectorized tracing: each function returns {site: log_prob}
        guide_sites, z = guide(self.num_particles, *args, **kwargs)
        model_sites = model(self.num_particles, z, *args, **kwargs)
        guide_trace = {"nodes": {k: {"type": "sample", "log_prob": v} for k, v in guide_sites.items()}}
        model_trace = {"nodes": {k: {"type": "sample", "log_prob": v} for k, v in model_sites.items()}}
        return model_trace, guide_trace

    def differentiable_loss(self, model, guide, *args, **kwargs):
        model_trace, guide_trace = self._get_traces(model, guide, *args, **kwargs)
        _, surrogate_loss = self._differentiable_loss_particle(model_trace, guide_trace)
        return surrogate_loss

class TraceTailAdaptive_ELBO(Trace_ELBO):
    def _differentiable_loss_particle(self, model_trace, guide_trace):
        if not self.vectorize_particles:
            raise NotImplementedError("TraceTailAdaptive_ELBO only implemented for vectorize_particles==True")

        if self.num_particles == 1:
            warnings.warn("For num_particles==1 TraceTailAdaptive_ELBO uses the same loss function as Trace_ELBO. " +
                          "Increase num_particles to get an adaptive f-divergence.")

        log_p, log_q = 0, 0

        for name, site in model_trace["nodes"].items():
            if site["type"] == "sample":
                site_log_p = site["log_prob"].reshape(self.num_particles, -1).sum(-1)
                log_p = log_p + site_log_p

        for name, site in guide_trace["nodes"].items():
            if site["type"] == "sample":
                site_log_q = site["log_prob"].reshape(self.num_particles, -1).sum(-1)
                log_q = log_q + site_log_q

        # rank the particles according to p/q
        log_pq = log_p - log_q
        rank = torch.argsort(log_pq, descending=False)
        rank = torch.index_select(torch.arange(self.num_particles) + 1, -1, rank).type_as(log_pq)

        # compute the particle-specific weights used to construct the surrogate loss
        gamma = torch.pow(rank, self.tail_adaptive_beta).detach()
        surrogate_loss = -(log_pq * gamma).sum() / gamma.sum()

        # we do not compute the loss, so return `inf`
        return float('inf'), surrogate_loss

class Encoder(nn.Module):
    def __init__(self, z_dim=10, hidden_dim=200):
        super().__init__()
        self.fc1 = nn.Linear(784, hidden_dim)
        self.fc21 = nn.Linear(hidden_dim, z_dim)
        self.fc22 = nn.Linear(hidden_dim, z_dim)
    def forward(self, x):
        h = torch.nn.functional.softplus(self.fc1(x))
        return self.fc21(h), torch.exp(self.fc22(h))

class Decoder(nn.Module):
    def __init__(self, z_dim=10, hidden_dim=200):
        super().__init__()
        self.fc1 = nn.Linear(z_dim, hidden_dim)
        self.fc2 = nn.Linear(hidden_dim, 784)
    def forward(self, z):
        return torch.sigmoid(self.fc2(torch.nn.functional.softplus(self.fc1(z))))

device = torch.device("cuda:0")
encoder = Encoder().to(device)
decoder = Decoder().to(device)

def guide(num_particles, x):
    z_loc, z_scale = encoder(x)
    q = torch.distributions.Normal(z_loc, z_scale, validate_args=False)
    z = q.rsample((num_particles,))
    return {"latent": q.log_prob(z).sum(-1)}, z

def model(num_particles, z, x):
    p_z = torch.distributions.Normal(torch.zeros_like(z), torch.ones_like(z), validate_args=False)
    probs = decoder(z)
    p_x = torch.distributions.Bernoulli(probs, validate_args=False)
    return {"latent": p_z.log_prob(z).sum(-1), "obs": p_x.log_prob(x.expand_as(probs)).sum(-1)}

elbo = TraceTailAdaptive_ELBO(num_particles=16, vectorize_particles=True, tail_adaptive_beta=-0.5)
x = torch.bernoulli(torch.full((32, 784), 0.3)).to(device)
'''
CELL = '''
loss = elbo.differentiable_loss(model, guide, x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["elbo"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.arange(self.num_particles) + 1", "torch.arange(self.num_particles, device=log_pq.device) + 1")
CLEAN = False
