"""A torchvision ResNet fed a uint8 image batch.

Source: https://github.com/pytorch/pytorch/issues/64145
`model = torchvision.models.resnet18(); x = torch.zeros(4, 3, 128, 128, dtype=torch.uint8);
model(x)` failed in `self.conv1(x)` with "expected scalar type Byte but found Float" (the report
is about how confusing that message is: it never says the *input* is uint8). The input must be a
floating tensor like the weights: `x.float()` (and /255 for images). Stand-in: a ResNet stem and
head with the same bias-free first convolution.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class ResNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1 = nn.Sequential(nn.Conv2d(16, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU())
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer1(x)
        return self.fc(torch.flatten(self.avgpool(x), 1))

model = ResNet()
x = torch.zeros(4, 3, 128, 128, dtype=torch.uint8)
'''
CELL = '''
out = model(x)
'''
EXPECT_ERROR = "expected scalar type Byte but found Float"
CULPRITS = ["x"]
FIX = "namespace"
REFERENCE_FIX = '''
x = x.float() / 255
'''
REFERENCE_EDIT = None
CLEAN = False
