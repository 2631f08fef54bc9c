"""Decipher's generative model on the GPU: prior scales and the dispersion init come from `x.new_ones(...)`.

Source: https://github.com/azizilab/decipher/blob/main/decipher/tools/_decipher/decipher.py
`Decipher.model` never names a device: the NB inverse dispersion is initialised with
`x.new_ones(self.config.dim_genes)` and the prior on v uses `dist.Normal(0, x.new_ones(self.config.dim_v))`,
so both are created on the device (and dtype) of the minibatch. With the module and the batch on
cuda:0, `library_size * mu` and `log(theta)` are all on cuda:0. Stand-ins: `ConditionalDenseNN`, the
Decipher module, and plain `torch.distributions` draws/log-probs (argument validation off) in place of pyro's
`param`/`sample`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.distributions import Normal, NegativeBinomial
from torch.nn.functional import softmax, softplus

class ConditionalDenseNN(nn.Module):
    def __init__(self, input_dim, hidden_dims, output_dims):
        super().__init__()
        dims = [input_dim] + list(hidden_dims)
        layers = []
        for a, b in zip(dims[:-1], dims[1:]):
            layers += [nn.Linear(a, b), nn.ReLU()]
        self.f = nn.Sequential(*layers)
        self.heads = nn.ModuleList([nn.Linear(dims[-1], d) for d in output_dims])

    def forward(self, x, context=None):
        h = self.f(x)
        outs = [head(h) for head in self.heads]
        return outs if len(outs) > 1 else outs[0]

class Decipher(nn.Module):
    def __init__(self, dim_genes, dim_z=10, dim_v=2, beta=0.1):
        super().__init__()
        self.dim_genes, self.dim_z, self.dim_v, self.beta = dim_genes, dim_z, dim_v, beta
        self.dummy_param = nn.Parameter(torch.empty(0))
        self.decoder_v_to_z = ConditionalDenseNN(dim_v, [64], [dim_z] * 2)
        self.decoder_z_to_x = ConditionalDenseNN(dim_z, [], [dim_genes])
        self._epsilon = 1e-5
        self.theta = None

    def model(self, x, context=None):
        """Log joint of one draw (pyro.param/pyro.sample replaced by their torch equivalents)."""
        self.theta = x.new_ones(self.dim_genes)                        # pyro.param("theta", ...)
        prior = Normal(0, x.new_ones(self.dim_v), validate_args=False)
        v = prior.rsample((len(x),))
        z_loc, z_scale = self.decoder_v_to_z(v, context=context)
        z_scale = softplus(z_scale)
        z = Normal(z_loc, z_scale, validate_args=False).rsample()
        mu = softmax(self.decoder_z_to_x(z, context=context), dim=-1)
        library_size = x.sum(axis=-1, keepdim=True)
        logit = torch.log(library_size * mu + self._epsilon) - torch.log(self.theta + self._epsilon)
        x_dist = NegativeBinomial(total_count=self.theta + self._epsilon, logits=logit, validate_args=False)
        return (self.beta * prior.log_prob(v).sum(-1)
                + Normal(z_loc, z_scale, validate_args=False).log_prob(z).sum(-1)
                + x_dist.log_prob(x).sum(-1)).mean()

rng = np.random.default_rng(0)
decipher = Decipher(dim_genes=30).to("cuda:0")
x = torch.from_numpy(rng.poisson(1.0, size=(64, 30)).astype(np.float32)).to("cuda:0")   # minibatch on the GPU
'''
CELL = '''
with torch.no_grad():
    log_joint = decipher.model(x)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
