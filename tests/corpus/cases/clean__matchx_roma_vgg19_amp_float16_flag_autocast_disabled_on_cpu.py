"""RoMa's VGG19 encoder built with `amp=True, amp_dtype=torch.float16`, run on the CPU: autocast is switched off there.

Source: https://github.com/Parskatt/RoMa/blob/main/romatch/models/encoders.py
Look-alike: the fine CNN is created with `amp=True` and a float16 `amp_dtype` while the weights and the
image stay float32 on the CPU. `get_autocast_params` (romatch/utils/utils.py) only enables autocast
when the device string contains 'cuda'; on the CPU it returns `enabled=False` (and bfloat16 as a
placeholder dtype), so every conv runs in float32 and no Half/Float mix happens. Stand-in: the
torchvision `vgg19_bn().features[:40]` stack reduced to two conv-bn-relu blocks with a max-pool each.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn


def get_autocast_params(device=None, enabled=False, dtype=None):
    if device is None:
        autocast_device = "cuda" if torch.cuda.is_available() else "cpu"
    else:
        #strip :X from device
        autocast_device = str(device).split(":")[0]
    if 'cuda' in str(device):
        out_dtype = dtype
        enabled = True
    else:
        out_dtype = torch.bfloat16
        enabled = False
        # mps is not supported
        autocast_device = "cpu"
    return autocast_device, enabled, out_dtype


class VGG19(nn.Module):
    def __init__(self, pretrained=False, amp = False, amp_dtype = torch.float16) -> None:
        super().__init__()
        # tvm.vgg19_bn(weights=...).features[:40]
        self.layers = nn.ModuleList([
            nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(inplace=True),
            nn.MaxPool2d(2, 2),
            nn.Conv2d(16, 32, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU(inplace=True),
            nn.MaxPool2d(2, 2),
        ])
        self.amp = amp
        self.amp_dtype = amp_dtype

    def forward(self, x, **kwargs):
        autocast_device, autocast_enabled, autocast_dtype = get_autocast_params(x.device, self.amp, self.amp_dtype)
        with torch.autocast(device_type=autocast_device, enabled=autocast_enabled, dtype = autocast_dtype):
            feats = {}
            scale = 1
            for layer in self.layers:
                if isinstance(layer, nn.MaxPool2d):
                    feats[scale] = x
                    scale = scale*2
                x = layer(x)
            return feats


device = torch.device("cpu")
cnn = VGG19(pretrained=False, amp=True, amp_dtype=torch.float16).eval().to(device)
im_A = torch.rand(1, 3, 64, 64, device=device)
'''
CELL = '''
with torch.no_grad():
    feature_pyramid = cnn(im_A)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
