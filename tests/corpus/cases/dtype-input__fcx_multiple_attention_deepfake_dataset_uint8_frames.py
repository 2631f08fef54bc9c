"""Multi-attentional deepfake detection (MAT): `DeepfakeDataset.__getitem__` returns uint8 face crops to an EfficientNet backbone.

Source: https://github.com/yoctta/multiple-attention/issues/26
Training MAT failed with "RuntimeError: expected scalar type Byte but found Float" in the EfficientNet
`Conv2dStaticSamePadding.forward` (its float `self.weight`). The frames read with `cv2.imread` are uint8 and
`DeepfakeDataset.__getitem__` returns `self.trans(image=image)['image']` as is, so the batches reach the
float32 backbone as Byte tensors. The reporter's fix, which worked: return
`(self.trans(image=image)['image']).float()` from `__getitem__` in `datasets/dataset.py`.
Stand-ins: albumentations' `CenterCrop`/`ToTensorV2` (HWC uint8 -> CHW uint8 tensor, no scaling), the
frame folders as in-memory frames, MAT reduced to an EfficientNet stem (`Conv2dStaticSamePadding`) and a
linear head, `run` reduced to one step on CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import math
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from torch.utils.data import Dataset, DataLoader

class CenterCrop:                     # albumentations.CenterCrop
    def __init__(self, height, width):
        self.height, self.width = height, width
    def __call__(self, image):
        h, w = image.shape[:2]
        top, left = (h - self.height) // 2, (w - self.width) // 2
        return image[top:top + self.height, left:left + self.width]

class ToTensorV2:                     # albumentations.pytorch.ToTensorV2: HWC -> CHW, dtype kept
    def __call__(self, image):
        return torch.from_numpy(image.transpose(2, 0, 1))

class Compose:
    def __init__(self, transforms):
        self.transforms = transforms
    def __call__(self, image):
        for t in self.transforms:
            image = t(image)
        return {"image": image}

class DeepfakeDataset(Dataset):
    def __init__(self, phase='train', datalabel='', resize=(32, 32), imgs_per_video=2):
        self.phase, self.resize, self.imgs_per_video = phase, resize, imgs_per_video
        self.epoch = 0
        self.trans = Compose([CenterCrop(*resize), ToTensorV2()])
        rng = np.random.default_rng(0)
        # FF_dataset(...): (frames of one video, label); frames as cv2.imread gives them
        self.dataset = [([rng.integers(0, 256, (40, 40, 3), dtype=np.uint8) for _ in range(imgs_per_video)], k % 2)
                        for k in range(4)]

    def next_epoch(self):
        self.epoch += 1

    def __getitem__(self, item):
        vid = self.dataset[item // self.imgs_per_video]
        image = vid[0][item % self.imgs_per_video]
        return self.trans(image=image)['image'], vid[1]

    def __len__(self):
        return len(self.dataset) * self.imgs_per_video

class Conv2dStaticSamePadding(nn.Conv2d):     # models/efficientnet/utils.py
    def __init__(self, in_channels, out_channels, kernel_size, image_size=None, **kwargs):
        super().__init__(in_channels, out_channels, kernel_size, **kwargs)
        self.static_padding = nn.ZeroPad2d((0, 1, 0, 1))
    def forward(self, x):
        x = self.static_padding(x)
        x = F.conv2d(x, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)
        return x

class MAT(nn.Module):
    def __init__(self, num_classes=2):
        super().__init__()
        self.net = nn.Module()
        self.net._conv_stem = Conv2dStaticSamePadding(3, 16, kernel_size=3, stride=2, bias=False)
        self.net._bn0 = nn.BatchNorm2d(16)
        self.ensemble_classifier_fc = nn.Linear(16, num_classes)

    def forward(self, x, y=None, train_batch=False, AG=None):
        f = F.silu(self.net._bn0(self.net._conv_stem(x)))
        logits = self.ensemble_classifier_fc(f.mean(dim=(2, 3)))
        return {'loss': F.cross_entropy(logits, y), 'logits': logits}

train_dataset = DeepfakeDataset(phase='train', datalabel='ff-all-c23', resize=(32, 32))
train_loader = DataLoader(train_dataset, batch_size=4, shuffle=False, num_workers=0)
net = MAT()
optimizer = torch.optim.AdamW(net.parameters(), lr=1e-3)
'''
CELL = '''
net.train()
for i, (X, y) in enumerate(train_loader):
    loss_pack = net(X, y, train_batch=True, AG=None)
    batch_loss = loss_pack['loss']
    batch_loss.backward()
    optimizer.step()
    optimizer.zero_grad()
'''
EXPECT_ERROR = ("should be the same", "expected scalar type")
CULPRITS = ["train_dataset"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return self.trans(image=image)['image'], vid[1]",
                  "return (self.trans(image=image)['image']).float(), vid[1]")
CLEAN = False
