"""Look-alike: timm's PrefetchLoader copies uint8 batches to the GPU and normalizes them there with mean/std made on the device.

Source: https://github.com/huggingface/pytorch-image-models/blob/main/timm/data/loader.py
`fast_collate` builds a uint8 CPU batch and int64 CPU targets; `PrefetchLoader.__iter__` moves both
with `.to(device, non_blocking=True)` and normalizes `next_input.to(img_dtype).sub_(self.mean)
.div_(self.std)` with `mean`/`std` created once as `torch.tensor([x * 255 for x in mean],
device=device)`. uint8 images on the CPU next to a GPU model are deliberate: nothing is wrong.
Stand-in: fast_collate, PrefetchLoader without CUDA streams, and a small classifier on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

IMAGENET_DEFAULT_MEAN = (0.485, 0.456, 0.406)
IMAGENET_DEFAULT_STD = (0.229, 0.224, 0.225)

def fast_collate(batch):
    batch_size = len(batch)
    targets = torch.tensor([b[1] for b in batch], dtype=torch.int64)
    tensor = torch.zeros((batch_size, *batch[0][0].shape), dtype=torch.uint8)
    for i in range(batch_size):
        tensor[i] += batch[i][0]
    return tensor, targets

class PrefetchLoader:
    def __init__(self, loader, mean=IMAGENET_DEFAULT_MEAN, std=IMAGENET_DEFAULT_STD,
                 device=torch.device("cuda:0"), img_dtype=torch.float32):
        self.loader = loader
        self.device = device
        self.img_dtype = img_dtype
        self.mean = torch.tensor([x * 255 for x in mean], device=device, dtype=img_dtype).view(1, 3, 1, 1)
        self.std = torch.tensor([x * 255 for x in std], device=device, dtype=img_dtype).view(1, 3, 1, 1)

    def __iter__(self):
        for next_input, next_target in self.loader:
            next_input = next_input.to(device=self.device, non_blocking=True)
            next_target = next_target.to(device=self.device, non_blocking=True)
            next_input = next_input.to(self.img_dtype).sub_(self.mean).div_(self.std)
            yield next_input, next_target

samples = [(torch.randint(0, 256, (3, 8, 8), dtype=torch.uint8), i % 5) for i in range(8)]
cpu_loader = [fast_collate(samples[:4]), fast_collate(samples[4:])]
loader = PrefetchLoader(cpu_loader)
model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 5)).to("cuda:0")
loss_fn = nn.CrossEntropyLoss()
'''
CELL = '''
with torch.no_grad():
    for input, target in loader:
        output = model(input)
        loss = loss_fn(output, target)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
