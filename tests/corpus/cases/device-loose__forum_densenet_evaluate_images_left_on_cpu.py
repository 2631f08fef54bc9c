"""Evaluating a DenseNet trained on the GPU: the test images go in as CPU tensors.

Source: https://github.com/gpleiss/efficient_densenet_pytorch/issues/6
"When I try to use the network I trained, `outputs = model(torch.autograd.Variable(images))` throws
... RuntimeError: expected CPU tensor (got CUDA tensor)" from the first conv of `self.features`.
The trained model lives on the GPU (the demo trains with `.cuda()`), while evaluate.py wraps the
DataLoader's CPU `images` without moving them. Stand-in: a two-block DenseNet-style features
stack and classifier; `.cuda()` is written `.to("cuda:0")`.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class DenseLayer(nn.Sequential):
    def __init__(self, num_input_features, growth_rate):
        super().__init__()
        self.add_module("norm", nn.BatchNorm2d(num_input_features))
        self.add_module("relu", nn.ReLU(inplace=True))
        self.add_module("conv", nn.Conv2d(num_input_features, growth_rate, 3, padding=1, bias=False))

    def forward(self, x):
        return torch.cat([x, super().forward(x)], 1)

class DenseNetEfficient(nn.Module):
    def __init__(self, growth_rate=12, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 24, 3, padding=1, bias=False),
            DenseLayer(24, growth_rate),
            DenseLayer(24 + growth_rate, growth_rate),
            nn.BatchNorm2d(24 + 2 * growth_rate),
        )
        self.classifier = nn.Linear(24 + 2 * growth_rate, num_classes)

    def forward(self, x):
        features = self.features(x)
        out = F.relu(features, inplace=True)
        out = F.adaptive_avg_pool2d(out, 1).view(features.size(0), -1)
        return self.classifier(out)

model = DenseNetEfficient().to("cuda:0")   # trained with .cuda()
model.eval()
images = torch.randn(8, 3, 32, 32)         # a batch from the test DataLoader
labels = torch.randint(0, 10, (8,))
'''
CELL = '''
outputs = model(torch.autograd.Variable(images))
_, predicted = torch.max(outputs.data, 1)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device",
                "Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor)",
                "should be the same")
CULPRITS = ["images"]
FIX = "namespace"
REFERENCE_FIX = '''
images = images.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
