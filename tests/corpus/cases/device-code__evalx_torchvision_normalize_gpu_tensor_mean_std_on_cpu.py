"""torchvision 0.3 `transforms.Normalize` on an image already on the GPU: mean/std tensors are built on the CPU.

Source: https://github.com/pytorch/vision/issues/1055
A style-transfer script moves the `ToTensor()` image to `torch.device('cuda')` and then applies
`transforms.Normalize(mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225))` to it. It worked on
torchvision 0.2.1, but 0.3.0's functional `normalize` turned mean/std into tensors with
`torch.as_tensor(mean, dtype=torch.float32)` (CPU) before `tensor.sub_(mean[:, None, None])`; the
maintainer points to the fix (pytorch/vision#787): create them with `device=tensor.device`.
Stand-in: torchvision 0.3's functional `normalize` and `Normalize` transform.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def normalize(tensor, mean, std, inplace=False):
    if not inplace:
        tensor = tensor.clone()
    mean = torch.as_tensor(mean, dtype=torch.float32)
    std = torch.as_tensor(std, dtype=torch.float32)
    tensor.sub_(mean[:, None, None]).div_(std[:, None, None])
    return tensor

class Normalize(object):
    def __init__(self, mean, std, inplace=False):
        self.mean, self.std, self.inplace = mean, std, inplace

    def __call__(self, tensor):
        return normalize(tensor, self.mean, self.std, self.inplace)

img = torch.rand(3, 64, 64)           # transforms.ToTensor()(Image.open('1.jpg'))
gpu_device = torch.device('cuda:0')
img = img.to(gpu_device)
norm = Normalize(mean=(0.485, 0.456, 0.406), std=(0.229, 0.224, 0.225))
'''
CELL = '''
content_image = norm(img)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["norm"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    mean = torch.as_tensor(mean, dtype=torch.float32)\n    std = torch.as_tensor(std, dtype=torch.float32)",
                  "    mean = torch.as_tensor(mean, dtype=torch.float32, device=tensor.device)\n    std = torch.as_tensor(std, dtype=torch.float32, device=tensor.device)")
CLEAN = False
