"""yunjey pytorch-tutorial neural style transfer: de-normalising the cuda result with torchvision's Normalize, whose mean/std were CPU tensors.

Source: https://github.com/yunjey/pytorch-tutorial/issues/180
Running `tutorials/03-advanced/neural_style_transfer/main.py` (PyTorch 1.1) failed when saving the
result at `img = denorm(img).clamp_(0, 1)`: torchvision's `F.normalize` of that time built `mean`/`std`
with `torch.tensor(mean, dtype=torch.float32)` on the CPU and did `tensor.sub_(mean[:, None, None])` on
the cuda image ("expected backend CUDA and dtype Float but got backend CPU"). The reporter's fix: bring
the image to the CPU first (`img = torch.FloatTensor(img.cpu())`) before `denorm`. torchvision's
`Normalize` of that version is reproduced as a stand-in; the style-transfer loop is left out.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch

def normalize(tensor, mean, std, inplace=False):      # torchvision 0.3 transforms.functional.normalize
    if not inplace:
        tensor = tensor.clone()
    mean = torch.tensor(mean, dtype=torch.float32)
    std = torch.tensor(std, dtype=torch.float32)
    tensor.sub_(mean[:, None, None]).div_(std[:, None, None])
    return tensor

class Normalize(object):
    def __init__(self, mean, std, inplace=False):
        self.mean = mean
        self.std = std
        self.inplace = inplace
    def __call__(self, tensor):
        return normalize(tensor, self.mean, self.std, self.inplace)

device = torch.device("cuda:0")
denorm = Normalize((-2.12, -2.04, -1.80), (4.37, 4.46, 4.44))
target = torch.rand(1, 3, 16, 16).to(device)          # the optimised image (content.clone().requires_grad_(True))
img = target.clone().squeeze()
'''
CELL = '''
img = denorm(img).clamp_(0, 1)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["img"]
FIX = "namespace"
REFERENCE_FIX = '''
img = img.cpu()
'''
REFERENCE_EDIT = None
CLEAN = False
