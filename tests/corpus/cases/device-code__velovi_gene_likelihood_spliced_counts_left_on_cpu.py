"""veloVI `get_gene_likelihood` on a GPU model: the minibatch's spliced/unspliced counts stay on the CPU while the mixture distributions are on cuda.

Source: https://github.com/YosefLab/velovi/issues/9
"get_gene_likelihood fails due to tensors on different devices": `likeli =
vae.get_gene_likelihood(n_samples=25)` failed at `reconst_loss_s = -mixture_dist_s.log_prob(spliced)`.
The scvi-tools data loader yields CPU tensors; `self.module.forward(tensors=...)` moves its own
inputs to the module's device (scvi's `auto_move_data`), but the method then reads
`spliced = tensors[REGISTRY_KEYS.X_KEY]` straight from the CPU batch and scores it under the GPU
mixture of the model's steady states. Stand-in: the VELOVAE module reduced to a linear encoder and
a two-component Normal mixture per gene (`validate_args=False`), the loop of `get_gene_likelihood`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
from torch.distributions import Categorical, MixtureSameFamily, Normal

class REGISTRY_KEYS:
    X_KEY = "X"
    U_KEY = "U"

def auto_move_data(fn):
    def wrapper(self, tensors, **kwargs):
        device = next(self.parameters()).device
        return fn(self, tensors={k: v.to(device) for k, v in tensors.items()}, **kwargs)
    return wrapper

class VELOVAE(nn.Module):
    def __init__(self, n_input, n_latent=10):
        super().__init__()
        self.encoder = nn.Linear(2 * n_input, n_latent)
        self.decoder = nn.Linear(n_latent, 2 * n_input)
        self.alpha = nn.Parameter(torch.rand(n_input) + 0.5)
        self.beta = nn.Parameter(torch.rand(n_input) + 0.5)
        self.gamma = nn.Parameter(torch.rand(n_input) + 0.5)
        self.scale_unconstr = nn.Parameter(torch.zeros(n_input, 2))

    @auto_move_data
    def forward(self, tensors, compute_loss=False):
        x = torch.cat([tensors[REGISTRY_KEYS.X_KEY], tensors[REGISTRY_KEYS.U_KEY]], dim=-1)
        z = self.encoder(torch.log1p(x))
        px = torch.sigmoid(self.decoder(z))
        inference_outputs = {"alpha": self.alpha, "beta": self.beta, "gamma": self.gamma}
        generative_outputs = {"px_pi": px, "scale": nn.functional.softplus(self.scale_unconstr)}
        return inference_outputs, generative_outputs

    def get_px(self, px_pi, scale, gamma, beta, alpha):
        n_genes = gamma.shape[0]
        pi = px_pi.narrow(-1, 0, n_genes)
        mean_u = torch.stack([alpha / beta * pi, torch.zeros_like(pi)], -1)
        mean_s = torch.stack([alpha / gamma * pi, torch.zeros_like(pi)], -1)
        mix = Categorical(logits=torch.stack([pi, 1 - pi], -1), validate_args=False)
        mixture_dist_s = MixtureSameFamily(mix, Normal(mean_s, scale, validate_args=False), validate_args=False)
        mixture_dist_u = MixtureSameFamily(mix, Normal(mean_u, scale, validate_args=False), validate_args=False)
        return mixture_dist_s, mixture_dist_u

class VELOVI:
    def __init__(self, n_genes):
        self.module = VELOVAE(n_genes)
        self.device = torch.device("cpu")

    def to_device(self, device):
        self.module.to(device)
        self.device = torch.device(device)

    def _make_data_loader(self, batch_size=64):
        g = torch.Generator().manual_seed(0)
        for _ in range(2):
            yield {REGISTRY_KEYS.X_KEY: torch.poisson(torch.full((batch_size, self.module.gamma.shape[0]), 3.0), generator=g),
                   REGISTRY_KEYS.U_KEY: torch.poisson(torch.full((batch_size, self.module.gamma.shape[0]), 1.0), generator=g)}

    @torch.no_grad()
    def get_gene_likelihood(self, n_samples=1, batch_size=64):
        scdl = self._make_data_loader(batch_size=batch_size)
        rls = []
        for tensors in scdl:
            minibatch_samples = []
            for _ in range(n_samples):
                inference_outputs, generative_outputs = self.module.forward(tensors=tensors, compute_loss=False)
                spliced = tensors[REGISTRY_KEYS.X_KEY]
                unspliced = tensors[REGISTRY_KEYS.U_KEY]
                mixture_dist_s, mixture_dist_u = self.module.get_px(
                    generative_outputs["px_pi"], generative_outputs["scale"], inference_outputs["gamma"],
                    inference_outputs["beta"], inference_outputs["alpha"])
                reconst_loss_s = -mixture_dist_s.log_prob(spliced)
                reconst_loss_u = -mixture_dist_u.log_prob(unspliced)
                minibatch_samples.append(-(reconst_loss_s + reconst_loss_u))
            rls.append(torch.stack(minibatch_samples).mean(0))
        return torch.cat(rls, dim=0)

vae = VELOVI(n_genes=200)
vae.to_device("cuda:0")                     # vae.train(use_gpu=True) leaves the module on the GPU
'''
CELL = '''
likeli = vae.get_gene_likelihood(n_samples=25)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["spliced"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("                spliced = tensors[REGISTRY_KEYS.X_KEY]\n                unspliced = tensors[REGISTRY_KEYS.U_KEY]\n",
                  "                spliced = tensors[REGISTRY_KEYS.X_KEY].to(self.device)\n                unspliced = tensors[REGISTRY_KEYS.U_KEY].to(self.device)\n")
CLEAN = False
