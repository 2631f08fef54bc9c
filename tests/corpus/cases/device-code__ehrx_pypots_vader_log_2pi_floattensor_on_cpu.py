"""PyPOTS VaDER on CUDA: the latent loss builds `log_2pi` with `torch.FloatTensor`, a CPU tensor.

Source: https://github.com/WenjieDu/PyPOTS/pull/22
"Fix the bugs in VaDER and CRLI that tensors are on different devices when running on CUDA." In
`_VaDER.forward`, the Gaussian-mixture latent loss computes
`log_2pi = torch.log(torch.FloatTensor([2 * torch.pi]))`, a one-element CPU tensor, and adds it to
the CUDA tensors `lsc_b` and the squared distances. The PR creates it on the input's device:
`log_2pi = torch.log(torch.tensor([2 * torch.pi], device=device))` with `device = X.device`.
Stand-in: PyPOTS 0.0.x `_VaDER` with the LSTM autoencoder reduced to linear layers over the
flattened series; the cell is one training step's forward pass (the loss is what `fit` backpropagates).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn


def cal_mse(inputs, target, mask):
    return torch.sum(torch.square(inputs - target) * mask) / (torch.sum(mask) + 1e-9)


class _VaDER(nn.Module):
    """Stand-in for pypots.clustering.vader._VaDER (0.0.x)."""

    def __init__(self, n_steps, d_input, n_clusters, d_mu_stddev=8, d_hidden=32, eps=1e-9):
        super().__init__()
        self.n_steps, self.d_input, self.n_clusters = n_steps, d_input, n_clusters
        self.d_mu_stddev, self.eps = d_mu_stddev, eps
        self.encoder = nn.Sequential(nn.Linear(n_steps * d_input * 2, d_hidden), nn.Tanh())
        self.enc_mu = nn.Linear(d_hidden, d_mu_stddev)
        self.enc_stddev = nn.Linear(d_hidden, d_mu_stddev)
        self.decoder = nn.Linear(d_mu_stddev, n_steps * d_input)
        self.mu_c_unscaled = nn.Parameter(torch.zeros(n_clusters, d_mu_stddev))
        self.stddev_c_unscaled = nn.Parameter(torch.zeros(n_clusters, d_mu_stddev))
        self.phi_c_unscaled = nn.Parameter(torch.ones(n_clusters))

    def get_results(self, X, missing_mask):
        h = self.encoder(torch.cat([X, missing_mask], dim=2).flatten(1))
        mu_tilde, stddev_tilde = self.enc_mu(h), self.enc_stddev(h)
        z = mu_tilde + torch.exp(0.5 * stddev_tilde) * torch.randn_like(mu_tilde)
        X_reconstructed = self.decoder(z).reshape(X.shape)
        mu_c = self.mu_c_unscaled
        var_c = torch.nn.functional.softplus(self.stddev_c_unscaled)
        phi_c = torch.softmax(self.phi_c_unscaled, dim=0)
        return X_reconstructed, mu_c, var_c, phi_c, z, mu_tilde, stddev_tilde

    def forward(self, inputs, pretrain=False):
        X, missing_mask = inputs["X"], inputs["missing_mask"]
        (X_reconstructed, mu_c, var_c, phi_c, z, mu_tilde, stddev_tilde) = self.get_results(X, missing_mask)

        # calculate the reconstruction loss
        unscaled_reconstruction_loss = cal_mse(X_reconstructed, X, missing_mask)
        reconstruction_loss = unscaled_reconstruction_loss * self.n_steps * self.d_input / missing_mask.sum()
        if pretrain:
            return {"loss": reconstruction_loss, "z": z}

        # calculate the latent loss
        var_tilde = torch.exp(stddev_tilde)
        stddev_c = torch.log(var_c + self.eps)
        log_2pi = torch.log(torch.FloatTensor([2 * torch.pi]))
        log_phi_c = torch.log(phi_c + self.eps)

        batch_size = z.shape[0]
        ii, jj = torch.meshgrid(
            torch.arange(self.n_clusters, dtype=torch.int64, device=X.device),
            torch.arange(batch_size, dtype=torch.int64, device=X.device),
            indexing="ij",
        )
        ii = ii.flatten()
        jj = jj.flatten()

        lsc_b = stddev_c.index_select(dim=0, index=ii)
        mc_b = mu_c.index_select(dim=0, index=ii)
        sc_b = var_c.index_select(dim=0, index=ii)
        z_b = z.index_select(dim=0, index=jj)
        log_pdf_z = -0.5 * (lsc_b + log_2pi + torch.square(z_b - mc_b) / sc_b)
        log_pdf_z = log_pdf_z.reshape([batch_size, self.n_clusters, self.d_mu_stddev])

        log_p = log_phi_c + log_pdf_z.sum(dim=2)
        lse_p = log_p.logsumexp(dim=1, keepdim=True)
        log_gamma_c = log_p - lse_p
        gamma_c = torch.exp(log_gamma_c)

        term1 = torch.log(var_c + self.eps)
        st_b = var_tilde.index_select(dim=0, index=jj)
        term2 = torch.reshape(st_b / (sc_b + self.eps), [batch_size, self.n_clusters, self.d_mu_stddev])
        mt_b = mu_tilde.index_select(dim=0, index=jj)
        term3 = torch.reshape(torch.square(mt_b - mc_b) / (sc_b + self.eps),
                              [batch_size, self.n_clusters, self.d_mu_stddev])

        latent_loss1 = 0.5 * torch.sum(gamma_c * torch.sum(term1 + term2 + term3, dim=2), dim=1)
        latent_loss2 = -torch.sum(gamma_c * (log_phi_c - log_gamma_c), dim=1)
        latent_loss3 = -0.5 * torch.sum(1 + stddev_tilde, dim=1)
        latent_loss = latent_loss1.mean() + latent_loss2.mean() + latent_loss3.mean()
        return {"loss": reconstruction_loss + latent_loss, "z": z}


class VaDER:
    """Stand-in for pypots.clustering.VaDER (BaseNNClusterer): the device and the nn.Module."""

    def __init__(self, n_steps, n_features, n_clusters, device=None):
        self.device = torch.device(device)
        self.model = _VaDER(n_steps, n_features, n_clusters).to(self.device)


vader = VaDER(n_steps=24, n_features=10, n_clusters=3, device="cuda:0")
# one training batch (e.g. ICU vitals), already sent to the model's device by the training loop
X = torch.randn(32, 24, 10)
missing_mask = (torch.rand(32, 24, 10) > 0.3).float()
inputs = {"X": X.to(vader.device), "missing_mask": missing_mask.to(vader.device)}
'''
CELL = '''
results = vader.model(inputs)
loss = results["loss"]
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["vader.model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        log_2pi = torch.log(torch.FloatTensor([2 * torch.pi]))",
                  "        log_2pi = torch.log(torch.tensor([2 * torch.pi], device=X.device))")
CLEAN = False
