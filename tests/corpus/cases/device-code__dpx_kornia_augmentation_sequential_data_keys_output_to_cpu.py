"""kornia 0.7.4 AugmentationSequential with `data_keys` sends the augmented image back to the CPU.

Source: https://github.com/kornia/kornia/issues/3066
GPU augmentation of a CUDA image and mask with `aug_list(input, mask, data_keys=["input", "mask"])`
returned the image on the CPU (the mask stayed on cuda:0): since 0.7.4 the container calls
`_detach_tensor_to_cpu` on every output tensor. Feeding the augmented batch to the CUDA model then
fails. The fix drops the forced CPU copy in the container's output path.
Stand-in: AugmentationSequential with one horizontal flip, the 0.7.4 output path, and a small
per-pixel segmentation head on cuda:0 that gets the augmented image.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def _detach_tensor_to_cpu(t):
    return t.detach().cpu()

class RandomHorizontalFlip(nn.Module):
    def __init__(self, p=0.5):
        super().__init__()
        self.p = p
    def forward(self, x):
        return x.flip(-1)

class AugmentationSequential(nn.Module):
    """kornia.augmentation.AugmentationSequential, reduced to the data_keys path."""
    def __init__(self, *augs):
        super().__init__()
        self.augs = nn.ModuleList(augs)

    def forward(self, *args, data_keys=None):
        outputs = []
        for arg in args:
            for aug in self.augs:
                arg = aug(arg)
            outputs.append(arg)
        if data_keys is None:
            return outputs[0]
        outputs[0] = _detach_tensor_to_cpu(outputs[0])
        return outputs

class SegNet(nn.Module):
    """a per-pixel head (Linear over channels)."""
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(3, 8), nn.ReLU(), nn.Linear(8, 1))
    def forward(self, x):
        return self.body(x.permute(0, 2, 3, 1)).squeeze(-1)

device = torch.device("cuda:0")
model = SegNet().to(device)
input = torch.randn(1, 3, 10, 10, device="cuda:0")
mask = torch.randn(1, 10, 10, device="cuda:0")
aug_list = AugmentationSequential(RandomHorizontalFlip(p=1))
'''
CELL = '''
img_aug, mask_aug = aug_list(input, mask, data_keys=["input", "mask"])
logits = model(img_aug)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["img_aug"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        outputs[0] = _detach_tensor_to_cpu(outputs[0])\n", "")
CLEAN = False
