"""Universal adversarial perturbations: the images go to the GPU inside `generate`, the classifier stays on the CPU.

Source: https://github.com/NetoPedro/Universal-Adversarial-Perturbations-Pytorch/issues/1
`r2 = (net(cur_img1).max(1)[1])` in `adversarial_perturbation.generate` raised "Input type
(torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same": the function
puts every image on the GPU (`.cuda()`), while the user built the torchvision classifier and
passed it in without moving it. Stand-in: a small conv classifier instead of the torchvision net
(the simulated conv does not check devices, so the mismatch surfaces in its final linear layer).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

device = torch.device("cuda:0")

class SmallNet(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1))
        self.classifier = nn.Linear(8, num_classes)

    def forward(self, x):
        return self.classifier(torch.flatten(self.features(x), 1))

def generate(images, net, v, xi=10.0, delta=0.2):
    fooled = 0
    for img in images:
        cur_img = img.unsqueeze(0).to(device)
        r2 = net(cur_img).max(1)[1]
        per_img = cur_img + v
        r1 = net(per_img).max(1)[1]
        fooled += int(r1.shape == r2.shape)
    return v, fooled

net = SmallNet()
net.eval()
v = torch.zeros(1, 3, 16, 16).to(device)
trainset = [torch.rand(3, 16, 16) for _ in range(3)]
'''
CELL = '''
with torch.no_grad():
    v, fooled = generate(trainset, net, v)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "Input type")
CULPRITS = ["net"]
FIX = "namespace"
REFERENCE_FIX = '''
net = net.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
