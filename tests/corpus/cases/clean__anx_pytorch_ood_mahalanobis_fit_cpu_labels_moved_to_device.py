"""pytorch-ood Mahalanobis: class means and precision are fitted from features on the detector's device.

Source: https://github.com/kkirchheim/pytorch-ood/blob/dev/src/pytorch_ood/detector/mahalanobis.py
Look-alike: `fit` iterates a loader of CPU images and CPU integer labels while the encoder is on cuda;
`mu` and `precision` are plain tensors on the detector (not buffers). It runs because `extract_features`
moves each batch to `device`, the labels are concatenated and moved with the features, the statistics
are computed from those cuda features, and `predict` uses the same device. Stand-in: the detector's
`fit_features` / `_calc_gaussian_scores` with a small encoder; per-class selection
`z[y == clazz]` is written as a mask product (the simulated GPU cannot index).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def extract_features(data_loader, model, device):
    x, y = [], []
    with torch.no_grad():
        for batch in data_loader:
            inputs, labels = batch
            inputs = inputs.to(device)
            x.append(model(inputs))
            y.append(labels.to(device))
    return torch.cat(x), torch.cat(y)

class Mahalanobis:
    def __init__(self, model, eps=0.002):
        self.model = model
        self.eps = eps
        self.mu = None
        self.precision = None

    def fit(self, data_loader, device="cpu"):
        z, y = extract_features(data_loader, self.model, device)
        return self.fit_features(z, y, device)

    def fit_features(self, z, y, device=None):
        n_classes = 3
        n_dim = z.shape[1]
        mus = []
        cov = torch.zeros(size=(n_dim, n_dim), device=z.device)
        for clazz in range(n_classes):
            w = (y == clazz).float().unsqueeze(1)          # z[y == clazz], as a mask
            mu = (z * w).sum(dim=0) / w.sum().clamp_min(1)
            centered = (z - mu) * w
            cov += centered.T.mm(centered)
            mus.append(mu)
        self.mu = torch.stack(mus)
        cov /= len(z) - 1
        self.precision = torch.linalg.pinv(cov + torch.eye(n_dim, device=z.device) * 1e-3)
        return self

    def predict(self, x):
        z = self.model(x)
        md = []
        for mu in self.mu.unbind(0):
            centered = z - mu
            md.append(-0.5 * ((centered @ self.precision) * centered).sum(dim=1))
        return -torch.stack(md, dim=1).max(dim=1).values

device = "cuda:0"
encoder = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 16), nn.ReLU(), nn.Linear(16, 6)).to(device).eval()
train_loader = [(torch.rand(10, 3, 8, 8), torch.randint(0, 3, (10,))) for _ in range(3)]
x_test = torch.rand(4, 3, 8, 8).to(device)
detector = Mahalanobis(encoder)
'''
CELL = '''
detector.fit(train_loader, device=device)
with torch.no_grad():
    scores = detector.predict(x_test)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
