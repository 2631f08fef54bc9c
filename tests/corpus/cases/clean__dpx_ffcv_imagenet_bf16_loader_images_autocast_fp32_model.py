"""Look-alike: the FFCV ImageNet recipe feeds half-precision images from the loader to a float32 model under autocast.

Source: https://github.com/libffcv/ffcv-imagenet/blob/main/train_imagenet.py
The image pipeline ends with `ToTorchImage(), NormalizeImage(mean, std, np.float16)` so batches
arrive in float16 (labels are int64 from `ToTensor(), Squeeze(), ToDevice(...)`), while the ResNet
keeps float32 weights; `train_loop` runs `with autocast(): output = self.model(images)` so the
mismatch is handled by autocast by design. Stand-in on the CPU: bfloat16 images (CPU autocast's
dtype), a small conv net in float32 and the same loop body.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class NormalizeImage:
    def __init__(self, mean, std, dtype):
        self.mean = torch.tensor(mean).view(1, 3, 1, 1)
        self.std = torch.tensor(std).view(1, 3, 1, 1)
        self.dtype = dtype
    def __call__(self, images_uint8):
        return ((images_uint8.float() - self.mean) / self.std).to(self.dtype)

normalize = NormalizeImage([123.675, 116.28, 103.53], [58.395, 57.12, 57.375], torch.bfloat16)
def loader():
    for _ in range(2):
        raw = torch.randint(0, 256, (4, 3, 32, 32), dtype=torch.uint8)
        yield normalize(raw), torch.randint(0, 10, (4,))

model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                      nn.Flatten(), nn.Linear(8, 10))
loss_fn = nn.CrossEntropyLoss(label_smoothing=0.1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
'''
CELL = '''
for images, target in loader():
    opt.zero_grad(set_to_none=True)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        output = model(images)
        loss_train = loss_fn(output, target)
    loss_train.backward()
    opt.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
