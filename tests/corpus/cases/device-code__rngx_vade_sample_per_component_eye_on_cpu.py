"""VaDE mixture-prior sampling on the GPU: `sample(per_comp=True)` builds its one-hot component matrix on the CPU.

Source: https://github.com/MatthewWilletts/algostability/issues/2
After loading a checkpoint and "Running on gpu:0", `samples = f.sample(10, per_comp=True)` of a
`VaDEFullMLP` failed at `loc = y_samples @ self.mu_p_z.permute(1,0)` with "Expected all tensors to be
on the same device, but found at least two devices, cpu and cuda:0! (... argument mat2 in method
wrapper_mm)". `y_samples = torch.tensor(np.eye(self.num_components, dtype=np.float32))` is a CPU
tensor while the prior means are parameters on cuda:0; the reporter's fix moves `y_samples` to the
model's device. Stand-in: the VaDE prior (component means / log-variances) and an MLP decoder; the
latent noise uses `randn_like` on the prior's device as in the original.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

class VaDEFullMLP(nn.Module):
    def __init__(self, data_dim=20, latent_dim=8, num_components=10, hidden=32):
        super().__init__()
        self.num_components = num_components
        self.mu_p_z = nn.Parameter(torch.randn(latent_dim, num_components))
        self.logvar_p_z = nn.Parameter(torch.zeros(latent_dim, num_components))
        self.decoder = nn.Sequential(nn.Linear(latent_dim, hidden), nn.ReLU(), nn.Linear(hidden, data_dim))

    def sample(self, n, per_comp=False):
        if per_comp:
            y_samples = torch.tensor(np.eye(self.num_components, dtype=np.float32))
            loc = y_samples @ self.mu_p_z.permute(1, 0)
            scale = (0.5 * (y_samples @ self.logvar_p_z.permute(1, 0))).exp()
            loc = loc.repeat_interleave(n, dim=0)
            scale = scale.repeat_interleave(n, dim=0)
            z = loc + scale * torch.randn_like(loc)
            return self.decoder(z)
        raise NotImplementedError

device = torch.device("cuda:0")
print("Running on gpu:0")
f = VaDEFullMLP(data_dim=20, latent_dim=8, num_components=10)
f = f.to(device)
f.eval()
'''
CELL = '''
with torch.no_grad():
    samples = f.sample(10, per_comp=True)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["f"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("y_samples = torch.tensor(np.eye(self.num_components, dtype=np.float32))",
                  "y_samples = torch.tensor(np.eye(self.num_components, dtype=np.float32)).to(self.mu_p_z.device)")
CLEAN = False
