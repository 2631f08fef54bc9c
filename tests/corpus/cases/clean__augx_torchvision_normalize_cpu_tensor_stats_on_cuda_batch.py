"""Look-alike: torchvision `transforms.Normalize` built with CPU mean/std tensors, applied to a CUDA batch.

Source: https://github.com/pytorch/vision/blob/main/torchvision/transforms/_functional_tensor.py
The transform object keeps `mean`/`std` exactly as given (here CPU tensors computed from the dataset), and
it is not an `nn.Module` buffer holder that `.to()` would move -- it looks like the stats will meet the
CUDA batch on the CPU. But the tensor kernel re-creates them on the image's device and dtype:
`mean = torch.as_tensor(mean, dtype=dtype, device=tensor.device)` (same for `std`), so normalising a
GPU batch is fine.
Stand-in: `normalize` (tensor kernel) and a reduced `Normalize` transform as in torchvision.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def normalize(tensor, mean, std, inplace=False):
    if not tensor.is_floating_point():
        raise TypeError(f"Input tensor should be a float tensor. Got {tensor.dtype}.")
    if not inplace:
        tensor = tensor.clone()
    dtype = tensor.dtype
    mean = torch.as_tensor(mean, dtype=dtype, device=tensor.device)
    std = torch.as_tensor(std, dtype=dtype, device=tensor.device)
    if mean.ndim == 1:
        mean = mean.view(-1, 1, 1)
    if std.ndim == 1:
        std = std.view(-1, 1, 1)
    return tensor.sub_(mean).div_(std)

class Normalize(nn.Module):
    def __init__(self, mean, std, inplace=False):
        super().__init__()
        self.mean, self.std, self.inplace = mean, std, inplace

    def forward(self, tensor):
        return normalize(tensor, self.mean, self.std, self.inplace)

dataset_mean = torch.tensor([0.4914, 0.4822, 0.4465])      # computed on the CPU from the training set
dataset_std = torch.tensor([0.2470, 0.2435, 0.2616])
norm = Normalize(mean=dataset_mean, std=dataset_std)
batch = torch.rand(16, 3, 32, 32).to("cuda:0")
'''
CELL = '''
batch_n = norm(batch)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
