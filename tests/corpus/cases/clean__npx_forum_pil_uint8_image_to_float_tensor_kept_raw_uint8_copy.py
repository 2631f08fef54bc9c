"""Look-alike: a uint8 PIL image mapped to a float32 [0, 1] tensor for the model, its raw uint8 copy kept beside it.

Source: https://discuss.pytorch.org/t/loading-an-unsigned-8bit-integer/176627/2
The answer shows the common path: `transforms.ToTensor()` turns the uint8 image (0..255) into a
float32 tensor in [0, 1] (lossless, since float32 holds every integer below 2**24), and checks the
reverse mapping with `(out * 255 == torch.from_numpy(np.array(img)).permute(2, 0, 1)).all()`.
The uint8 tensor in the namespace is only compared against, never fed to a layer; the model gets
the float tensor. Stand-ins: a numpy "PIL" image and a ToTensor equivalent.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

def to_tensor(pic):
    """torchvision.transforms.ToTensor for a HWC uint8 image."""
    return torch.from_numpy(np.array(pic)).permute(2, 0, 1).contiguous().float().div(255)

img = np.random.randint(0, 256, size=(32, 32, 3), dtype=np.uint8)   # PIL.Image.open(PATH)
print(np.array(img).min(), np.array(img).max())
out = to_tensor(img)
raw = torch.from_numpy(np.array(img)).permute(2, 0, 1)
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                      nn.Flatten(), nn.Linear(8, 10))
'''
CELL = '''
y = out * 255
print((y.round() == raw).all())
logits = model(out.unsqueeze(0))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
