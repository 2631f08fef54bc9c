"""Look-alike: the C&W objective builds one-hot targets from a CPU identity and CPU labels, then moves them.

Source: https://github.com/Harry24k/CW-pytorch/issues/3
The repo's objective makes `torch.eye(len(outputs[0]))[labels].to(device)`; it fails when the labels
are on the GPU (the report), and runs when the lookup is all on the CPU: the identity and the labels
are both CPU tensors, and only the finished one-hot matrix is moved next to the logits. A CPU
identity, CPU labels and GPU logits in one function, all correct. Stand-in: the attack's first
objective evaluation, the lookup written `index_select` (the simulator cannot index with `[]`).
"""

SIM = "fake_cuda"
FAMILY = "clean"
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

def cw_objective(model, images, labels, c=1e-4, kappa=0):
    images = images.to(device)
    def f(x):
        outputs = model(x)
        one_hot_labels = torch.eye(outputs.size(1)).index_select(0, labels).to(device)
        i, _ = torch.max((1 - one_hot_labels) * outputs, dim=1)
        j = (one_hot_labels * outputs).sum(dim=1)
        return torch.clamp(j - i, min=-kappa)
    w = torch.zeros_like(images)
    a = 1 / 2 * (nn.Tanh()(w) + 1)
    return nn.MSELoss(reduction="sum")(a, images) + torch.sum(c * f(a))

model = SmallCNN().to(device).eval()
images = torch.rand(8, 3, 32, 32)
labels = torch.randint(0, 10, (8,))          # kept on the CPU on purpose
'''
CELL = '''
cost = cw_objective(model, images, labels, c=0.1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
