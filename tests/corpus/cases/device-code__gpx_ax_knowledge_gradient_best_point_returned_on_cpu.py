"""Ax knowledge gradient on the GPU: the best point comes back as a CPU tensor and meets the cuda GP.

Source: https://github.com/facebook/Ax/issues/406
With `get_GPKG(..., device=cuda)`, `botorch_kg.gen(1)` fails with a device mismatch: Ax's
`best_point_acqf` always returns the best point to Ax as a CPU tensor, and `KnowledgeGradient.gen`
passes it unchanged to `PosteriorMean(model)` to get the current value. The maintainer's fix (on
master) pushes the best point to the model's device in `botorch_kg.py`.
Stand-in: Ax's KnowledgeGradient model with a small GP posterior mean (RBF kernel, cached
`alpha`) instead of BoTorch's `qKnowledgeGradient`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

class TinyGP:
    def __init__(self, train_X, train_Y, lengthscale=0.3):
        self.train_X, self.lengthscale = train_X, lengthscale
        K = self.kernel(train_X, train_X) + 1e-3 * torch.eye(train_X.shape[0], dtype=train_X.dtype, device=train_X.device)
        self.alpha = torch.linalg.solve(K, train_Y)

    def kernel(self, a, b):
        return torch.exp(-0.5 * torch.cdist(a, b) ** 2 / self.lengthscale ** 2)

    def posterior_mean(self, X):
        return self.kernel(X, self.train_X) @ self.alpha

def best_point_acqf(model, bounds, raw_samples=64):
    X = bounds[0] + (bounds[1] - bounds[0]) * torch.rand(raw_samples, bounds.shape[-1], dtype=bounds.dtype)
    X = X.to(model.train_X.device)
    best = model.posterior_mean(X).squeeze(-1).argmax()
    return X.index_select(0, best.reshape(1)).cpu()      # Ax keeps the best point on the CPU

class KnowledgeGradient:
    def __init__(self, device, dtype=torch.double):
        self.device, self.dtype = device, dtype

    def fit(self, Xs, Ys):
        self.model = TinyGP(Xs[0].to(self.device, self.dtype), Ys[0].to(self.device, self.dtype))

    def gen(self, n, bounds):
        X_best = best_point_acqf(self.model, bounds)
        current_value = self.model.posterior_mean(X_best)
        return X_best, current_value

DEVICE = torch.device("cuda:0")
botorch_kg = KnowledgeGradient(device=DEVICE)
botorch_kg.fit([torch.rand(5, 2, dtype=torch.double)], [torch.rand(5, 1, dtype=torch.double)])
bounds = torch.tensor([[0.0, 0.0], [1.0, 1.0]], dtype=torch.double)
'''
CELL = '''
candidate, current_value = botorch_kg.gen(1, bounds)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "found at least two devices")
CULPRITS = ["botorch_kg"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("X_best = best_point_acqf(self.model, bounds)",
                  "X_best = best_point_acqf(self.model, bounds).to(self.device)")
CLEAN = False
