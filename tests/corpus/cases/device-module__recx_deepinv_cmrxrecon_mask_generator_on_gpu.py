"""deepinv CMRxRecon dataset with its k-t mask generator built on the GPU: `kspace * mask` mixes cpu k-space and a cuda mask.

Source: https://github.com/deepinv/deepinv/pull/696
"Fix example on GPU": running the CMRxRecon example on a GPU machine failed in
`CMRxReconSliceDataset.__getitem__` at `kspace = kspace * mask + 0.0` "because the mask_generator is
on GPU" while the dataset loads k-space on the CPU. The maintainer: datasets should only load on the
CPU and the trainer moves batches to the GPU, so the mask generator belongs on the CPU (the PR's quick
fix moved the mask). Stand-in: a reduced dataset (random k-space slice) and a Cartesian
`RandomMaskGenerator` that samples on its own device.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch

class RandomMaskGenerator:
    def __init__(self, img_size, acceleration=4, device="cpu"):
        self.img_size = img_size
        self.acceleration = acceleration
        self.device = device

    def step(self, batch_size=1, seed=None):
        T, H, W = self.img_size
        lines = (torch.rand(T, 1, W, device=self.device) < 1.0 / self.acceleration).float()
        return {"mask": lines.expand(T, H, W)[None]}

class CMRxReconSliceDataset(torch.utils.data.Dataset):
    def __init__(self, root=None, mask_generator=None, apply_mask=True):
        self.mask_generator = mask_generator
        self.apply_mask = apply_mask

    def __len__(self):
        return 4

    def __getitem__(self, i):
        kspace = torch.randn(2, 12, 64, 64)          # (re/im, T, H, W), loaded on the CPU
        target = kspace.pow(2).sum(0, keepdim=True).sqrt()
        mask = self.mask_generator.step(seed=i)["mask"]
        if self.apply_mask:
            kspace = kspace * mask + 0.0
        return target, kspace, {"mask": mask}

device = "cuda:0"
img_size = (12, 64, 64)
dataset = CMRxReconSliceDataset(mask_generator=RandomMaskGenerator(img_size, device=device))
'''
CELL = '''
x, y, params = dataset[0]
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["dataset.mask_generator"]
FIX = "namespace"
REFERENCE_FIX = '''
dataset.mask_generator = RandomMaskGenerator(img_size, device="cpu")
'''
REFERENCE_EDIT = None
CLEAN = False
