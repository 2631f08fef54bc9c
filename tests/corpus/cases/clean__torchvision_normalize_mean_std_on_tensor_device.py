"""Look-alike: torchvision's fixed `normalize` builds mean/std from Python lists on the image's device.

Source: https://github.com/pytorch/vision/pull/787
"Normalize tensors located on any device": after this PR `F.normalize` makes
`mean = torch.as_tensor(mean, dtype=dtype, device=tensor.device)` (and `std`), so a `Normalize`
(or a `Denormalize` subclass) built from Python lists works on accelerator images; the
constants are created where the tensor is. Stand-in: that `normalize`, with meta as the
accelerator.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch

def normalize(tensor, mean, std, inplace=False):
    """torchvision.transforms.functional.normalize after pytorch/vision#787."""
    if not inplace:
        tensor = tensor.clone()
    dtype = tensor.dtype
    mean = torch.as_tensor(mean, dtype=dtype, device=tensor.device)
    std = torch.as_tensor(std, dtype=dtype, device=tensor.device)
    tensor.sub_(mean[:, None, None]).div_(std[:, None, None])
    return tensor

class Normalize(object):
    def __init__(self, mean, std, inplace=False):
        self.mean, self.std, self.inplace = mean, std, inplace

    def __call__(self, tensor):
        return normalize(tensor, self.mean, self.std, self.inplace)

class Denormalize(Normalize):
    def __init__(self, mean, std):
        super().__init__([-m / s for m, s in zip(mean, std)], [1 / s for s in std])

denormalize = Denormalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])
device = "meta"
img = torch.rand(2, 3, 64, 64).to(device)
'''
CELL = '''
img = denormalize(img[0])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
