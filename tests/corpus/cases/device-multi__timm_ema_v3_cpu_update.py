"""timm's ModelEmaV3 kept on the CPU (`device='cpu'`) averages in the GPU model's weights.

Source: https://github.com/huggingface/pytorch-image-models/issues/2127
The user created `ModelEmaV3(model, device='cpu')` to keep the EMA weights off the GPU; the
first `update(model)` raised "Expected all tensors to be on the same device, ... cuda:0 and cpu!"
at `ema_v.lerp_(model_v, weight=1. - decay)`: unlike ModelEmaV2, V3's update never moved the
model's values to the EMA's device. The maintainer's fix: `model_v.to(ema_v.device)` in that line.
Stand-in: the EMA class with V3's update loop (foreach off); the copy is re-instantiated and
loaded (the simulation cannot deepcopy), and made before the model goes to the GPU; with `device='cpu'` the EMA ends on the CPU either way.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class ModelEmaV3(nn.Module):
    def __init__(self, model, decay=0.9999, device=None):
        super().__init__()
        self.module = type(model)()
        self.module.load_state_dict(model.state_dict())
        self.module.eval()
        self.decay = decay
        self.device = device
        if self.device is not None:
            self.module.to(device=device)

    @torch.no_grad()
    def update(self, model):
        decay = self.decay
        for ema_v, model_v in zip(self.module.state_dict().values(), model.state_dict().values()):
            if ema_v.is_floating_point():
                ema_v.lerp_(model_v, weight=1. - decay)
            else:
                ema_v.copy_(model_v)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3), nn.BatchNorm2d(8), nn.ReLU())
        self.head = nn.Linear(8 * 6 * 6, 10)

    def forward(self, x):
        return self.head(self.features(x).flatten(1))

model = Net()
model_ema = ModelEmaV3(model, decay=0.998, device="cpu")
model.to("cuda:0")
'''
CELL = '''
model_ema.update(model)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model_ema"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "ema_v.lerp_(model_v, weight=1. - decay)",
    "ema_v.lerp_(model_v.to(ema_v.device), weight=1. - decay)",
)
CLEAN = False
