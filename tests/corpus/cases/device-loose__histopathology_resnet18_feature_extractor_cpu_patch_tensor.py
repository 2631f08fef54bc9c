"""Self-supervised histopathology ResNet18 on the GPU: the WSI patch tensor is fed from the CPU.

Source: https://github.com/ozanciga/self-supervised-histopathology/issues/9
The reporter's `get_model_ciga()` loads the checkpoint into a torchvision resnet18 and returns
`model.cuda()`; `feature_extractor = torch.nn.Sequential(*list(model.children())[:-1])` keeps those
cuda layers. The RGB patch opened with PIL and turned into a tensor stays on the CPU, and
`feature_extractor(...)` raised "Input type (torch.FloatTensor) and weight type
(torch.cuda.FloatTensor) should be the same". Stand-ins: a small resnet-shaped model without
weights, the PIL image as a uint8 array, ToTensor written out; the tensor's name is ours.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import numpy as np
import torch
from torch import nn

class BasicBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x):
        return torch.relu(x + self.bn2(self.conv2(torch.relu(self.bn1(self.conv1(x))))))

class ResNet(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(3, stride=2, padding=1)
        self.layer1 = BasicBlock(16)
        self.layer2 = BasicBlock(16)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer2(self.layer1(x))
        return self.fc(torch.flatten(self.avgpool(x), 1))

def get_model_ciga(path='tenpercent_resnet18.ckpt'):
    model = ResNet()
    state_dict = {k: v.clone() for k, v in model.state_dict().items()}   # torch.load(path, map_location='cuda:0')
    model.load_state_dict(state_dict)
    return model.to("cuda:0")                                             # model.cuda()

model = get_model_ciga('tenpercent_resnet18.ckpt')
model.eval()
feature_extractor = torch.nn.Sequential(*list(model.children())[:-1])
rgb_img = np.random.default_rng(0).integers(0, 256, size=(64, 64, 3), dtype=np.uint8)   # Image.open(img_path)
img_tensor = (torch.from_numpy(rgb_img).permute(2, 0, 1).float() / 255).unsqueeze(0)    # ToTensor()(rgb_img)
'''
CELL = '''
features = feature_extractor(img_tensor)
features = features.squeeze()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["img_tensor"]
FIX = "namespace"
REFERENCE_FIX = '''
img_tensor = img_tensor.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
