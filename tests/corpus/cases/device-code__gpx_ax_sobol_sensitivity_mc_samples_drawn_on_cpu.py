"""Ax `compute_analyses` with a cuda model: the Sobol sensitivity MC inputs are drawn on the CPU.

Source: https://github.com/facebook/Ax/issues/3813
With the Modular BoTorch interface and `torch_device=cuda`, optimisation runs on the GPU but some
analysis cards fail: `SobolSensitivity` in `ax/utils/sensitivity/sobol_measures.py` draws its
input samples from the (CPU) search-space bounds and passes them to the model without checking
the model's device. The fix (PR #3839) takes the device into account when building the samples.
Stand-in: `SobolSensitivityGPMean` reduced to the A/B sample matrices and a GP posterior mean.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def unnormalize(X, bounds):
    return bounds[0] + (bounds[1] - bounds[0]) * X

class SobolSensitivity:
    def __init__(self, bounds, input_function, num_mc_samples=64, dtype=torch.double):
        self.dim = bounds.shape[-1]
        self.input_function = input_function
        self.A = unnormalize(torch.rand(num_mc_samples, self.dim), bounds).to(dtype)
        self.B = unnormalize(torch.rand(num_mc_samples, self.dim), bounds).to(dtype)

    def first_order_indices(self):
        f_A = self.input_function(self.A)
        f_B = self.input_function(self.B)
        var = torch.cat([f_A, f_B]).var()
        return ((f_A - f_B) ** 2).mean() / (2 * var)

class GPMean:
    def __init__(self, train_X, train_Y, lengthscale=0.5):
        self.train_X, self.lengthscale = train_X, lengthscale
        K = torch.exp(-0.5 * torch.cdist(train_X, train_X) ** 2 / lengthscale ** 2)
        K = K + 1e-3 * torch.eye(train_X.shape[0], dtype=train_X.dtype, device=train_X.device)
        self.alpha = torch.linalg.solve(K, train_Y)

    def __call__(self, X):
        K = torch.exp(-0.5 * torch.cdist(X, self.train_X) ** 2 / self.lengthscale ** 2)
        return (K @ self.alpha).squeeze(-1)

torch_device = torch.device("cuda:0")
model = GPMean(torch.rand(8, 3, dtype=torch.double).to(torch_device),
               torch.rand(8, 1, dtype=torch.double).to(torch_device))
bounds = torch.tensor([[0.0, 0.0, 0.0], [1.0, 2.0, 5.0]])      # Ax search-space bounds (CPU)
'''
CELL = '''
ind = SobolSensitivity(bounds=bounds, input_function=model)
first_order = ind.first_order_indices()
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "found at least two devices", "must have the same device type")
CULPRITS = ["ind"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        f_A = self.input_function(self.A)\n        f_B = self.input_function(self.B)\n",
                  "        device = self.input_function.train_X.device\n"
                  "        f_A = self.input_function(self.A.to(device))\n"
                  "        f_B = self.input_function(self.B.to(device))\n")
CLEAN = False
