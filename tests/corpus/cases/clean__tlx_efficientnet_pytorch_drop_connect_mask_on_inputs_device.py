"""Look-alike: fine-tuning a pretrained `efficientnet_pytorch` EfficientNet in train mode; `drop_connect` builds its mask inside the forward, on the input's device.

Source: https://github.com/lukemelas/EfficientNet-PyTorch/blob/master/efficientnet_pytorch/utils.py
In training mode every MBConvBlock with a skip connection calls `drop_connect(x, p, training)`, which
creates a fresh random tensor in the middle of the forward and mixes it with a Python float
(`random_tensor = keep_prob; random_tensor += torch.rand([batch_size, 1, 1, 1], dtype=inputs.dtype,
device=inputs.device)`). A tensor made inside a forward is the classic CPU straggler, but the
library passes `device=inputs.device` (and the float `keep_prob` is a scalar), so the mask follows the
GPU activations. Stand-in: a two-block EfficientNet with the library's names, `_fc` replaced for the
user's classes before the move; training forward and loss without backward (no autograd in this
simulation), BatchNorm layers in eval mode because fake cuda cannot run training-mode batch_norm.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.nn import functional as F

def drop_connect(inputs, p, training):
    """ Drop connect. """
    if not training: return inputs
    batch_size = inputs.shape[0]
    keep_prob = 1 - p
    random_tensor = keep_prob
    random_tensor += torch.rand([batch_size, 1, 1, 1], dtype=inputs.dtype, device=inputs.device)  # uniform [0,1)
    binary_tensor = torch.floor(random_tensor)
    output = inputs / keep_prob * binary_tensor
    return output

class MBConvBlock(nn.Module):
    def __init__(self, filters, expand_ratio=4):
        super().__init__()
        oup = filters * expand_ratio
        self._expand_conv = nn.Conv2d(filters, oup, 1, bias=False)
        self._bn0 = nn.BatchNorm2d(oup)
        self._depthwise_conv = nn.Conv2d(oup, oup, 3, padding=1, groups=oup, bias=False)
        self._bn1 = nn.BatchNorm2d(oup)
        self._project_conv = nn.Conv2d(oup, filters, 1, bias=False)
        self._bn2 = nn.BatchNorm2d(filters)
        self._swish = nn.SiLU()
        self.id_skip = True

    def forward(self, inputs, drop_connect_rate=None):
        x = self._swish(self._bn0(self._expand_conv(inputs)))
        x = self._swish(self._bn1(self._depthwise_conv(x)))
        x = self._bn2(self._project_conv(x))
        if self.id_skip:
            if drop_connect_rate:
                x = drop_connect(x, p=drop_connect_rate, training=self.training)
            x = x + inputs
        return x

class EfficientNet(nn.Module):
    def __init__(self, num_classes=1000, drop_connect_rate=0.2):
        super().__init__()
        self.drop_connect_rate = drop_connect_rate
        self._conv_stem = nn.Conv2d(3, 16, 3, stride=2, padding=1, bias=False)
        self._bn0 = nn.BatchNorm2d(16)
        self._blocks = nn.ModuleList([MBConvBlock(16), MBConvBlock(16)])
        self._conv_head = nn.Conv2d(16, 64, 1, bias=False)
        self._bn1 = nn.BatchNorm2d(64)
        self._avg_pooling = nn.AdaptiveAvgPool2d(1)
        self._dropout = nn.Dropout(0.2)
        self._fc = nn.Linear(64, num_classes)
        self._swish = nn.SiLU()

    @classmethod
    def from_pretrained(cls, model_name):
        return cls()                     # weights are not loaded in this stand-in

    def extract_features(self, inputs):
        x = self._swish(self._bn0(self._conv_stem(inputs)))
        for idx, block in enumerate(self._blocks):
            drop_connect_rate = self.drop_connect_rate * float(idx + 1) / len(self._blocks)
            x = block(x, drop_connect_rate=drop_connect_rate)
        return self._swish(self._bn1(self._conv_head(x)))

    def forward(self, inputs):
        x = self.extract_features(inputs)
        x = self._avg_pooling(x).flatten(start_dim=1)
        x = self._dropout(x)
        return self._fc(x)

device = torch.device("cuda:0")
model = EfficientNet.from_pretrained('efficientnet-b0')
model._fc = nn.Linear(model._fc.in_features, 5)
model = model.to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
train_loader = [(torch.randn(4, 3, 32, 32), torch.randint(0, 5, (4,))) for _ in range(2)]
'''
CELL = '''
model.train()
for m in model.modules():               # simulation only: fake cuda cannot run training-mode
    if isinstance(m, nn.BatchNorm2d):   # batch_norm, so the BN layers keep their running stats
        m.eval()
for images, labels in train_loader:
    images, labels = images.to(device), labels.to(device)
    optimizer.zero_grad()
    outputs = model(images)
    loss = criterion(outputs, labels)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
