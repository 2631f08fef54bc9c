"""Look-alike: FACIL's `LLL_Net.task_offset` is a plain CPU LongTensor attribute that the criterion subtracts from cuda targets.

Source: https://github.com/mmasana/FACIL/blob/master/src/networks/network.py (LLL_Net.add_head)
and https://github.com/mmasana/FACIL/blob/master/src/approach/incremental_learning.py (train_epoch, criterion)
`add_head` recomputes `self.task_cls = torch.tensor([...])` and `self.task_offset =
torch.cat([torch.LongTensor(1).zero_(), self.task_cls.cumsum(0)[:-1]])`: plain attributes, not
buffers, so `net.to(device)` leaves them on the CPU. The criterion computes
`cross_entropy(outputs[t], targets - self.model.task_offset[t])` with `targets` on cuda:0; indexing
gives a 0-dim CPU tensor, which PyTorch accepts as a scalar next to cuda tensors. Nothing is
misplaced. Stand-ins: `LLL_Net` (heads, `add_head`, forward), the `Inc_Learning_Appr` training
step without backward/optimizer (fake cuda has no autograd), a small MLP for resnet32 with heads
for tasks 0 and 1.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class SmallNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.head_var = 'fc'
        self.features = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 64), nn.ReLU())
        self.fc = nn.Sequential()

    def forward(self, x):
        return self.fc(self.features(x))

class LLL_Net(nn.Module):
    def __init__(self, model, remove_existing_head=False):
        super(LLL_Net, self).__init__()
        self.model = model
        self.out_size = 64
        self.heads = nn.ModuleList()
        self.task_cls = []
        self.task_offset = []

    def add_head(self, num_outputs):
        self.heads.append(nn.Linear(self.out_size, num_outputs))
        self.task_cls = torch.tensor([head.out_features for head in self.heads])
        self.task_offset = torch.cat([torch.LongTensor(1).zero_(), self.task_cls.cumsum(0)[:-1]])

    def forward(self, x, return_features=False):
        x = self.model(x)
        y = []
        for head in self.heads:
            y.append(head(x))
        return y

class Inc_Learning_Appr:
    def __init__(self, model, device):
        self.model = model
        self.device = device

    def criterion(self, t, outputs, targets):
        return torch.nn.functional.cross_entropy(outputs[t], targets - self.model.task_offset[t])

device = 'cuda:0'
net = LLL_Net(SmallNet(), remove_existing_head=True)
net.add_head(10)          # task 0: classes 0-9
net.add_head(10)          # task 1: classes 10-19
net.to(device)
appr = Inc_Learning_Appr(net, device)
t = 1
images = torch.randn(32, 3, 8, 8)
targets = torch.randint(10, 20, (32,))
'''
CELL = '''
outputs = appr.model(images.to(appr.device))
loss = appr.criterion(t, outputs, targets.to(appr.device))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
