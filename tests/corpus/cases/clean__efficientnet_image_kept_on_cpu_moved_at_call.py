"""Look-alike: single-image inference keeps the preprocessed image on the CPU and moves it in the call.

Source: https://github.com/lukemelas/EfficientNet-PyTorch/issues/52
The answer to the report: `.to()` is not in place, assign or pass the moved tensor. Here the
user keeps `img` on the CPU (for display and reuse) and runs `model(img.to(device))` on a GPU
model: two devices in the namespace, each used where it belongs. EfficientNet is stood in for by
a small conv net.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class EfficientNet(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        self._conv_stem = nn.Conv2d(3, 32, 3, stride=2, padding=1, bias=False)
        self._bn0 = nn.BatchNorm2d(32)
        self._avg_pooling = nn.AdaptiveAvgPool2d(1)
        self._fc = nn.Linear(32, num_classes)

    def forward(self, x):
        x = torch.relu(self._bn0(self._conv_stem(x)))
        return self._fc(self._avg_pooling(x).flatten(1))

device = torch.device('cuda:0')
model = EfficientNet().to(device)
model.eval()
img = torch.randn(3, 224, 224).unsqueeze(0)
'''
CELL = '''
with torch.no_grad():
    outputs = model(img.to(device))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
