"""Carlini-Wagner L2 attack: a CPU identity matrix indexed with the GPU labels to build one-hot targets.

Source: https://github.com/Harry24k/CW-pytorch/issues/3
`cw_l2_attack` moves `images` and `labels` to the device, then its objective builds
`one_hot_labels = torch.eye(len(outputs[0]))[labels].to(device)`: the identity is made on the CPU
and indexed with CUDA labels, "indices should be either on cpu or on the same device as the indexed
tensor (cpu)" (the user: "I don't know, which item should set to cpu"). Stand-in: the attack's
first objective evaluation (the simulator runs no autograd, so Adam's steps on `w` are left out);
the row lookup is written `index_select` and `len(outputs[0])` as `outputs.size(1)` (the
simulator cannot index fake GPU tensors with `[]`), and
`masked_select` as a masked sum.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
import torch.nn as nn

device = torch.device("cuda:0")

class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 128), nn.ReLU())
        self.fc = nn.Linear(128, 10)
    def forward(self, x):
        return self.fc(self.features(x))

def cw_l2_attack(model, images, labels, targeted=False, c=1e-4, kappa=0, max_iter=1, learning_rate=0.01):
    images = images.to(device)
    labels = labels.to(device)

    # Define f-function
    def f(x):
        outputs = model(x)
        one_hot_labels = torch.eye(outputs.size(1)).index_select(0, labels).to(device)
        i, _ = torch.max((1 - one_hot_labels) * outputs, dim=1)
        j = (one_hot_labels * outputs).sum(dim=1)
        if targeted:
            return torch.clamp(i - j, min=-kappa)
        return torch.clamp(j - i, min=-kappa)

    w = torch.zeros_like(images).to(device)
    cost = None
    for step in range(max_iter):
        a = 1 / 2 * (nn.Tanh()(w) + 1)
        loss1 = nn.MSELoss(reduction="sum")(a, images)
        loss2 = torch.sum(c * f(a))
        cost = loss1 + loss2
    return 1 / 2 * (nn.Tanh()(w) + 1), cost

model = SmallCNN().to(device).eval()
images = torch.rand(8, 3, 32, 32).to(device)
labels = torch.randint(0, 10, (8,)).to(device)
'''
CELL = '''
attack_images, cost = cw_l2_attack(model, images, labels, targeted=False, c=0.1)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["labels"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "torch.eye(outputs.size(1)).index_select(0, labels).to(device)",
    "torch.eye(outputs.size(1), device=labels.device).index_select(0, labels)",
)
CLEAN = False
