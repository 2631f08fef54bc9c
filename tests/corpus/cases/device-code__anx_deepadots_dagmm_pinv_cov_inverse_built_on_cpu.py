"""DeepADoTS DAGMM on the GPU: the per-component inverse covariances are rebuilt from numpy on the CPU.

Source: https://github.com/KDD-OpenSource/DeepADoTS/issues/203
"DAGMM-LSTM cannot run on gpu": `DAGMM.compute_energy` inverts each Gaussian component's covariance
with `np.linalg.pinv(cov_k.data.numpy())` and concatenates `torch.from_numpy(pinv)` into
`cov_inverse`, which stays on the CPU while `z`/`mu` are on cuda. The workaround in the thread adds
`.cpu()` before `.numpy()` (line 231) and `cov_inverse = torch.cat(cov_inverse, dim=0).cuda()` (line
243). This case is the state after the first half of that workaround: the energy term then mixes the CPU
`cov_inverse` with the cuda `z_mu`. Stand-ins: DAGMM's estimation/energy code with a tiny
compression network; the host copy `.cpu().numpy()` is simulated by `_host_pinv` (the simulated GPU
cannot copy to the host), which returns the numpy pseudo-inverse of the right shape.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

device = torch.device("cuda:0")

def to_var(x):
    return x.to(device)

def _host_pinv(cov_k):
    # np.linalg.pinv(cov_k.data.cpu().numpy()) -- host copy not simulated
    return np.linalg.pinv(np.eye(cov_k.shape[0]) + 0.1)

class DAGMMModule(nn.Module):
    def __init__(self, n_features=6, n_gmm=2, latent_dim=3):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(n_features, 8), nn.Tanh(), nn.Linear(8, 1))
        self.decoder = nn.Sequential(nn.Linear(1, 8), nn.Tanh(), nn.Linear(8, n_features))
        self.estimation = nn.Sequential(nn.Linear(latent_dim, 10), nn.Tanh(), nn.Linear(10, n_gmm), nn.Softmax(dim=1))

    def forward(self, x):
        enc = self.encoder(x)
        dec = self.decoder(enc)
        rec_cosine = nn.functional.cosine_similarity(x, dec, dim=1)
        rec_euclidean = (x - dec).norm(2, dim=1) / x.norm(2, dim=1)
        z = torch.cat([enc, rec_euclidean.unsqueeze(-1), rec_cosine.unsqueeze(-1)], dim=1)
        gamma = self.estimation(z)
        return enc, dec, z, gamma

    def compute_gmm_params(self, z, gamma):
        sum_gamma = torch.sum(gamma, dim=0)
        phi = sum_gamma / gamma.size(0)
        mu = torch.sum(gamma.unsqueeze(-1) * z.unsqueeze(1), dim=0) / sum_gamma.unsqueeze(-1)
        z_mu = z.unsqueeze(1) - mu.unsqueeze(0)
        z_mu_outer = z_mu.unsqueeze(-1) * z_mu.unsqueeze(-2)
        cov = torch.sum(gamma.unsqueeze(-1).unsqueeze(-1) * z_mu_outer, dim=0) / sum_gamma.unsqueeze(-1).unsqueeze(-1)
        return phi, mu, cov

    def compute_energy(self, z, phi, mu, cov):
        k, D, _ = cov.size()
        z_mu = z.unsqueeze(1) - mu.unsqueeze(0)
        cov_inverse = []
        eps = 1e-12
        for i in range(k):
            cov_k = cov[i] + to_var(torch.eye(D) * eps)
            pinv = _host_pinv(cov_k)
            cov_inverse.append(torch.from_numpy(pinv).float().unsqueeze(0))
        cov_inverse = torch.cat(cov_inverse, dim=0)
        exp_term_tmp = -0.5 * torch.sum(torch.sum(z_mu.unsqueeze(-1) * cov_inverse.unsqueeze(0), dim=-2) * z_mu, dim=-1)
        return -torch.logsumexp(exp_term_tmp + torch.log(phi.unsqueeze(0)), dim=1)

class DAGMM:
    def __init__(self, n_gmm=2):
        self.dagmm = DAGMMModule(n_gmm=n_gmm).to(device)

    def fit(self, X):
        input_data = to_var(torch.as_tensor(X).float())
        enc, dec, z, gamma = self.dagmm(input_data)
        phi, mu, cov = self.dagmm.compute_gmm_params(z, gamma)
        return self.dagmm.compute_energy(z, phi, mu, cov)

X_train = np.random.rand(64, 6).astype(np.float32)
det = DAGMM()
'''
CELL = '''
with torch.no_grad():
    sample_energy = det.fit(X_train)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["det"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("cov_inverse = torch.cat(cov_inverse, dim=0)", "cov_inverse = torch.cat(cov_inverse, dim=0).to(z.device)")
CLEAN = False
