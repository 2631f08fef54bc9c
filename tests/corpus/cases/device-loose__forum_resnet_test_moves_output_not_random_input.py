"""ResNet101 smoke test: the net goes `.to(device)`, the random input doesn't - `.to(device)` is on the output.

Source: https://github.com/aladdinpersson/Machine-Learning-Collection/pull/192
Running ML/Pytorch/CNN_architectures/pytorch_resnet.py on a GPU machine failed in `test()` at
`y = net(torch.randn(BATCH_SIZE, 3, 224, 224)).to(device)` with "RuntimeError: Input type
(torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same": `net =
ResNet101(img_channel=3, num_classes=1000).to(device)` is on CUDA while the input batch is made on
the CPU, and the `.to(device)` applies to the output. The PR removes the device transfer from the
instantiation. Stand-in: the script's bottleneck ResNet with one block per stage at 64x64; test()'s
body is run as cells.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn

class block(nn.Module):
    def __init__(self, in_channels, intermediate_channels, identity_downsample=None, stride=1):
        super().__init__()
        self.expansion = 4
        self.conv1 = nn.Conv2d(in_channels, intermediate_channels, kernel_size=1, stride=1, padding=0, bias=False)
        self.bn1 = nn.BatchNorm2d(intermediate_channels)
        self.conv2 = nn.Conv2d(intermediate_channels, intermediate_channels, kernel_size=3, stride=stride, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(intermediate_channels)
        self.conv3 = nn.Conv2d(intermediate_channels, intermediate_channels * self.expansion, kernel_size=1, stride=1, padding=0, bias=False)
        self.bn3 = nn.BatchNorm2d(intermediate_channels * self.expansion)
        self.relu = nn.ReLU()
        self.identity_downsample = identity_downsample

    def forward(self, x):
        identity = x.clone()
        x = self.relu(self.bn1(self.conv1(x)))
        x = self.relu(self.bn2(self.conv2(x)))
        x = self.bn3(self.conv3(x))
        if self.identity_downsample is not None:
            identity = self.identity_downsample(identity)
        x += identity
        return self.relu(x)

class ResNet(nn.Module):
    def __init__(self, block, layers, image_channels, num_classes):
        super(ResNet, self).__init__()
        self.in_channels = 64
        self.conv1 = nn.Conv2d(image_channels, 64, kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU()
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(block, layers[0], intermediate_channels=16, stride=1)
        self.layer2 = self._make_layer(block, layers[1], intermediate_channels=32, stride=2)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(32 * 4, num_classes)

    def forward(self, x):
        x = self.conv1(x)
        x = self.bn1(x)
        x = self.relu(x)
        x = self.maxpool(x)
        x = self.layer1(x)
        x = self.layer2(x)
        x = self.avgpool(x)
        x = x.reshape(x.shape[0], -1)
        return self.fc(x)

    def _make_layer(self, block, num_residual_blocks, intermediate_channels, stride):
        identity_downsample = None
        layers = []
        if stride != 1 or self.in_channels != intermediate_channels * 4:
            identity_downsample = nn.Sequential(
                nn.Conv2d(self.in_channels, intermediate_channels * 4, kernel_size=1, stride=stride, bias=False),
                nn.BatchNorm2d(intermediate_channels * 4))
        layers.append(block(self.in_channels, intermediate_channels, identity_downsample, stride))
        self.in_channels = intermediate_channels * 4
        for i in range(num_residual_blocks - 1):
            layers.append(block(self.in_channels, intermediate_channels))
        return nn.Sequential(*layers)

def ResNet101(img_channel=3, num_classes=1000):
    return ResNet(block, [1, 1], img_channel, num_classes)   # [3, 4, 23, 3] in the script

BATCH_SIZE = 4
device = "cuda:0"                     # "cuda" if torch.cuda.is_available() else "cpu"
net = ResNet101(img_channel=3, num_classes=1000).to(device)
net.eval()
'''
CELL = '''
y = net(torch.randn(BATCH_SIZE, 3, 64, 64)).to(device)
assert y.size() == torch.Size([BATCH_SIZE, 1000])
print(y.size())
'''
EXPECT_ERROR = ("Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same",
                "Expected all tensors to be on the same device",
                "should be the same")
CULPRITS = ["net"]
FIX = "namespace"
REFERENCE_FIX = '''
net = net.to("cpu")
'''
REFERENCE_EDIT = None
CLEAN = False
