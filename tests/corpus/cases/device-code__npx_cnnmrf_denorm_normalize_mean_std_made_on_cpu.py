"""CNNMRF: de-normalising the CUDA synthesis image with transforms.Normalize, whose mean/std tensors are built on the CPU.

Source: https://github.com/jonzhaocn/cnnmrf-pytorch/issues/1
Running `main.py` on a GPU, `get_synthesis_image(synthesis, denorm_transform)` failed inside
torchvision's `F.normalize` at `tensor.sub_(mean[:, None, None]).div_(std[:, None, None])` with
"expected type torch.cuda.FloatTensor but got torch.FloatTensor": the denorm transform was built
from plain mean/std numbers, which `normalize` turned into CPU tensors, while the synthesis image
(the optimised tensor, later converted to a numpy/PIL image) is on cuda. The author's answer: build
it as `transforms.Normalize(mean=torch.tensor([-2.12, -2.04, -1.80]).to(device),
std=torch.tensor([4.37, 4.46, 4.44]).to(device))`. Stand-in: torchvision 0.2-era `Normalize`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

class Normalize(object):
    def __init__(self, mean, std, inplace=False):
        self.mean, self.std, self.inplace = mean, std, inplace

    def __call__(self, tensor):
        if not self.inplace:
            tensor = tensor.clone()
        mean = torch.as_tensor(self.mean, dtype=torch.float32)
        std = torch.as_tensor(self.std, dtype=torch.float32)
        tensor.sub_(mean.view(-1, 1, 1)).div_(std.view(-1, 1, 1))
        return tensor

class transforms:
    Normalize = Normalize

device = torch.device("cuda:0")
denorm_transform = transforms.Normalize(mean=(-2.12, -2.04, -1.80), std=(4.37, 4.46, 4.44))

def get_synthesis_image(synthesis, denorm):
    image = synthesis.clone().squeeze(0)
    image = denorm(image).clamp_(0, 1)
    return image

synthesis = torch.rand(1, 3, 64, 64).to(device)
'''
CELL = '''
image = get_synthesis_image(synthesis, denorm_transform)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "expected type")
CULPRITS = ["denorm_transform"]
FIX = "namespace"
REFERENCE_FIX = '''
denorm_transform = transforms.Normalize(mean=torch.tensor([-2.12, -2.04, -1.80]).to(device),
                                        std=torch.tensor([4.37, 4.46, 4.44]).to(device))
'''
REFERENCE_EDIT = None
CLEAN = False
