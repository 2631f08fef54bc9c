"""tetrisRL: resuming a DQN trained on the GPU; the weights are loaded into a fresh model that is never moved to CUDA, the states are.

Source: https://github.com/jaybutera/tetrisRL/pull/3
"The bug was when loading a model that was created on cuda into a model running also in cuda, was
not being called the .cuda(). Causing this error: Input type (CUDAFloatTensor) and weight type
(CPUFloatTensor) should be the same". dqn_agent.py builds `model = DQN()` and, when a checkpoint is
given, `load_checkpoint` restores its state dict; the `.cuda()` call happened only on the fresh-model
branch, while the environment states were put on the GPU (`FloatTensor = torch.cuda.FloatTensor`).
Stand-in: the conv DQN and the resume branch; tensors created on the device directly.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

use_cuda = True
device = "cuda:0" if use_cuda else "cpu"

class DQN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, kernel_size=5, stride=2)
        self.bn1 = nn.BatchNorm2d(16)
        self.conv2 = nn.Conv2d(16, 32, kernel_size=5, stride=2)
        self.bn2 = nn.BatchNorm2d(32)
        self.lin1 = nn.Linear(32 * 2 * 5, 256)
        self.head = nn.Linear(256, 8)

    def forward(self, x):
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.relu(self.bn2(self.conv2(x)))
        x = F.relu(self.lin1(x.view(x.size(0), -1)))
        return self.head(x)

def load_checkpoint(filename):
    checkpoint = {"epoch": 120, "state_dict": DQN().state_dict(), "best_score": 31}   # torch.load(filename)
    return checkpoint

resume = "checkpoint.pth.tar"
model = DQN()
if resume:
    checkpoint = load_checkpoint(resume)
    model.load_state_dict(checkpoint["state_dict"])
    start_epoch = checkpoint["epoch"]
else:
    if use_cuda:
        model.to(device)         # model.cuda()
model.eval()
state = torch.rand(1, 1, 20, 30, device=device)        # env.reset() as a FloatTensor on the GPU
'''
CELL = '''
with torch.no_grad():
    action = model(state).max(1)[1].view(1, 1)
'''
EXPECT_ERROR = ("should be the same", "Expected all tensors to be on the same device")
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to("cuda:0")          # model.cuda()
'''
REFERENCE_EDIT = None
CLEAN = False
