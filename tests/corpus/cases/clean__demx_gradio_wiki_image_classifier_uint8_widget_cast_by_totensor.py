"""Look-alike: the gradio wiki's image-classification Space: the `gr.inputs.Image` widget hands a uint8 RGB image to `predict`, and `transforms.ToTensor()` turns it into float32 in [0, 1] before the ResNet.

Source: https://github.com/gradio-app/gradio/wiki/How-data-gets-processed-in-a-Gradio-Interface
The Space `abidlabs/pytorch-image-classifier` shown there: `model = torch.hub.load('pytorch/vision:v0.6.0',
'resnet18', pretrained=True).eval()` at import, then `def predict(inp): inp =
transforms.ToTensor()(inp).unsqueeze(0); with torch.no_grad(): prediction =
torch.nn.functional.softmax(model(inp)[0], dim=0); confidences = {labels[i]: float(prediction[i]) for i in
range(1000)}`. The widget's 8-bit pixels meet float32 conv weights only after ToTensor's cast: nothing to
report. Stand-ins: torchvision's ToTensor reduced to its ndarray path (uint8 -> float / 255), resnet18 reduced
to a stem, one residual block and the 1000-way head; the labels file replaced by generated names; the uploaded
image is the ndarray of the PIL image gradio passes.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class ToTensor:
    """torchvision.transforms.ToTensor on an HWC ndarray, reduced."""
    def __call__(self, pic):
        img = torch.from_numpy(pic.transpose((2, 0, 1))).contiguous()
        if isinstance(img, torch.ByteTensor):
            return img.to(dtype=torch.get_default_dtype()).div(255)
        return img

class transforms:
    ToTensor = ToTensor

class BasicBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)
    def forward(self, x):
        out = torch.relu(self.bn1(self.conv1(x)))
        return torch.relu(self.bn2(self.conv2(out)) + x)

class ResNet(nn.Module):
    """torchvision resnet18, reduced."""
    def __init__(self, num_classes=1000):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.maxpool = nn.MaxPool2d(3, stride=2, padding=1)
        self.layer1 = BasicBlock(16)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(16, num_classes)
    def forward(self, x):
        x = self.maxpool(torch.relu(self.bn1(self.conv1(x))))
        x = self.layer1(x)
        return self.fc(torch.flatten(self.avgpool(x), 1))

model = ResNet().eval()            # torch.hub.load('pytorch/vision:v0.6.0', 'resnet18', pretrained=True).eval()
labels = [f"class_{i}" for i in range(1000)]

def predict(inp):
    inp = transforms.ToTensor()(inp).unsqueeze(0)
    with torch.no_grad():
        prediction = torch.nn.functional.softmax(model(inp)[0], dim=0)
        confidences = {labels[i]: float(prediction[i]) for i in range(1000)}
    return confidences

inp = np.random.randint(0, 256, size=(96, 128, 3), dtype=np.uint8)   # gr.inputs.Image(type="pil") upload
'''
CELL = '''
confidences = predict(inp)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
