"""AMP training of a torchvision ResNet-18 whose `fc` was replaced after `.to(device)`: the new head is on the CPU.

Source: https://github.com/pytorch/pytorch/issues/42358
"Type mismatch error in Autocast enabled region": testing the new AMP in 1.6, the user got
"RuntimeError: expected scalar type Float but found Half" in the fully connected layer. The code:
`model = tv.models.resnet18(pretrained=True).to(device)` and then `model.fc =
torch.nn.Linear(512,10)`, followed by the autocast training loop. The replaced head was created
after the move, so it lives on the CPU in float32 while the backbone runs on the GPU under autocast.
Stand-in: a small conv backbone with torchvision's ResNet attribute names (conv1/bn1/layer1/avgpool/
fc); forward under `torch.autocast("cuda")` and the loss, without backward (no autograd in this
simulation).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

class ResNet(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, kernel_size=7, stride=2, padding=3, bias=False)
        self.relu = nn.ReLU(inplace=True)
        self.layer1 = nn.Sequential(nn.Conv2d(64, 512, 3, stride=2, padding=1, bias=False), nn.ReLU(inplace=True))
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(512, num_classes)

    def forward(self, x):
        x = self.relu(self.conv1(x))
        x = self.layer1(x)
        x = self.avgpool(x)
        x = torch.flatten(x, 1)
        return self.fc(x)

device = torch.device("cuda:0")
model = ResNet().to(device)                # tv.models.resnet18(pretrained=True).to(device)
model.fc = torch.nn.Linear(512, 10)

loss_fn = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters())
input = torch.randn(8, 3, 32, 32)
target = torch.randint(0, 10, (8,))
'''
CELL = '''
input, target = input.to(device), target.to(device)
optimizer.zero_grad()
with torch.autocast("cuda"):
    output = model(input)
    loss = loss_fn(output, target)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device",
                "expected scalar type Float but found Half",
                "should be the same",
                "must have the same dtype")
CULPRITS = ["model.fc"]
FIX = "namespace"
REFERENCE_FIX = '''
model.fc = model.fc.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
