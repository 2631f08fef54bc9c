"""Accuracy helper compares GPU predictions with CPU targets (seen through `.view(-1)`).

Source: https://github.com/fupinglee/CalculateCaptcha_Recognition/issues/1
`train.py` moved the images and the network to cuda:0 but `calculat_acc(output, target)` got the
DataLoader's target as it came, on the CPU; the helper reshapes both and compares them.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

def calculat_acc(output, target):
    output, target = output.view(-1, 10), target.view(-1)
    pred = output.argmax(dim=1)
    return (pred == target).float().mean()

net = nn.Sequential(nn.Flatten(), nn.Linear(60 * 160, 64), nn.ReLU(), nn.Linear(64, 4 * 10))
net = net.to("cuda:0")
img = torch.randn(8, 1, 60, 160).to("cuda:0")
target = torch.randint(0, 10, (8, 4))
'''
CELL = '''
output = net(img)
acc = calculat_acc(output, target)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["target"]
FIX = "namespace"
REFERENCE_FIX = '''
target = target.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
