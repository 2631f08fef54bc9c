"""Single-image inference: `img.to(device)` called as a statement, the image stays on the CPU.

Source: https://github.com/lukemelas/EfficientNet-PyTorch/issues/52
The user's inference snippet built `img = tfms(Image.open('img.png')).unsqueeze(0)`, then wrote
`img.to(device)` and `model.to(device)` on their own lines and got "Input type
(torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same". The reply:
`Tensor.to` is not in place, write `img = img.to(device)`. EfficientNet is stood in for by a
small conv net; the PIL/transforms step by a random normalized image tensor.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn

class EfficientNet(nn.Module):
    # stand-in for EfficientNet.from_pretrained('efficientnet-b0')
    def __init__(self, num_classes=1000):
        super().__init__()
        self._conv_stem = nn.Conv2d(3, 32, 3, stride=2, padding=1, bias=False)
        self._bn0 = nn.BatchNorm2d(32)
        self._avg_pooling = nn.AdaptiveAvgPool2d(1)
        self._fc = nn.Linear(32, num_classes)

    def forward(self, x):
        x = torch.relu(self._bn0(self._conv_stem(x)))
        return self._fc(self._avg_pooling(x).flatten(1))

model = EfficientNet()
device = torch.device('cuda:0')
img = torch.randn(3, 224, 224).unsqueeze(0)   # tfms(Image.open('img.png')).unsqueeze(0)
img.to(device)
model.to(device)
model.eval()
'''
CELL = '''
with torch.no_grad():
    outputs = model(img)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["img"]
FIX = "namespace"
REFERENCE_FIX = '''
img = img.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
