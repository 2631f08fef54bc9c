"""YOLOv5 classification training: the end-of-epoch accuracy pass feeds `images.half()` to the float32 EMA model.

Source: https://github.com/ultralytics/yolov5/issues/9148
In classify training the test pass ran `pred = torch.max(ema.ema((images.half() if cuda else
images.float()).to(device)), 1)[1]`; on the user's V100 this failed with a Half input against the
float32 weights. The maintainer: "ema.ema itself should never be half, so we should not need to
pass it half images" -- the EMA copy is kept in float32 (AMP only autocasts the training forward),
so the images must stay float. Fixed in master by feeding float images.
Stand-in: yolov5's ModelEMA (deepcopy kept in fp32) and the test pass as a function; CPU (dtype
bug only), with `cuda=True` as on the user's machine.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import math
from copy import deepcopy
import torch
from torch import nn

class ModelEMA:
    def __init__(self, model, decay=0.9999, tau=2000, updates=0):
        self.ema = deepcopy(model).eval()           # FP32 EMA
        self.updates = updates
        self.decay = lambda x: decay * (1 - math.exp(-x / tau))
        for p in self.ema.parameters():
            p.requires_grad_(False)

    def update(self, model):
        self.updates += 1
        d = self.decay(self.updates)
        msd = model.state_dict()
        for k, v in self.ema.state_dict().items():
            if v.dtype.is_floating_point:
                v *= d
                v += (1 - d) * msd[k].detach()

model = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.SiLU(),
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10))
ema = ModelEMA(model)
device = torch.device("cpu")          # cuda:0 in the report
cuda = True                            # device.type != 'cpu' on the user's machine

@torch.no_grad()
def test_accuracy(ema, testloader):
    correct = total = 0
    for images, labels in testloader:
        pred = torch.max(ema.ema((images.half() if cuda else images.float()).to(device)), 1)[1]
        correct += (labels.to(device) == pred).sum().item()
        total += labels.size(0)
    return correct / total

testloader = [(torch.rand(4, 3, 32, 32), torch.randint(0, 10, (4,))) for _ in range(2)]
'''
CELL = '''
fitness = test_accuracy(ema, testloader)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "same dtype")
# NB: relabelled after first contact (it read "ema.ema"): the maintainer's words name the half
# images made in test_accuracy, not the float32 EMA copy, which is as it should be
CULPRITS = ["test_accuracy"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("ema.ema((images.half() if cuda else images.float()).to(device))",
                  "ema.ema(images.float().to(device))")
CLEAN = False
