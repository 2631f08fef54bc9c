"""A `Denormalize` subclass of torchvision's `Normalize` fails on a CUDA image: `normalize` builds mean/std on the CPU.

Source: https://github.com/pytorch/pytorch/issues/19028
"torchvision.transforms.functional.normalize breaks with CUDA tensors": the user's detection
script undid the input normalization with `img = denormalize(img[0])` on a CUDA batch
(`Denormalize` subclasses `transforms.Normalize` with `-mean/std`, `1/std`). torchvision 0.2.2's
`F.normalize` made `mean = torch.tensor(mean, dtype=torch.float32)` (and `std`) with no device,
so `tensor.sub_(mean[:, None, None])` mixed devices. The user proposed
`device=tensor.device`, which is what pytorch/vision#787 merged. Stand-in: that `normalize`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def normalize(tensor, mean, std, inplace=False):
    """torchvision.transforms.functional.normalize as in torchvision 0.2.2."""
    if not inplace:
        tensor = tensor.clone()
    mean = torch.tensor(mean, dtype=torch.float32)
    std = torch.tensor(std, dtype=torch.float32)
    tensor.sub_(mean.view(-1, 1, 1)).div_(std.view(-1, 1, 1))   # mean[:, None, None]
    return tensor

class Normalize(object):
    def __init__(self, mean, std, inplace=False):
        self.mean, self.std, self.inplace = mean, std, inplace

    def __call__(self, tensor):
        return normalize(tensor, self.mean, self.std, self.inplace)

class Denormalize(Normalize):
    """the user's transforms.py: undo Normalize(mean, std)."""
    def __init__(self, mean, std):
        super().__init__([-m / s for m, s in zip(mean, std)], [1 / s for s in std])

    def __call__(self, input):
        return super().__call__(input)

denormalize = Denormalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])
device = torch.device("cuda:0")
img = torch.rand(2, 3, 64, 64).to(device)     # a normalized batch coming out of the model
'''
CELL = '''
img = denormalize(img.select(0, 0))     # img[0] (integer indexing is not simulated)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["mean"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "mean = torch.tensor(mean, dtype=torch.float32)\n    std = torch.tensor(std, dtype=torch.float32)",
    "mean = torch.tensor(mean, dtype=torch.float32).to(tensor.device)\n"
    "    std = torch.tensor(std, dtype=torch.float32).to(tensor.device)",
)
CLEAN = False
