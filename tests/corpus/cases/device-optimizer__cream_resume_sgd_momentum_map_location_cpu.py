"""Resuming supernet training: SGD momentum buffers restored on the CPU, the model moved to the GPU afterwards.

Source: https://github.com/microsoft/Cream/issues/2
With AUTO_RESUME the script loaded the checkpoint (`map_location="cpu"`), restored the model and
the SGD optimizer into the CPU model, and only then moved the model to the GPU; the first
`optimizer.step()` failed in `buf.mul_(momentum).add_(d_p, ...)` with "found at least two devices,
cuda:2 and cpu": the momentum buffers stayed where the parameters were at load time.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn

class SuperNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU())
        self.blocks = nn.ModuleList([nn.Conv2d(8, 8, 3, padding=1) for _ in range(2)])
        self.classifier = nn.Linear(8, 10)

    def forward(self, x):
        x = self.stem(x)
        for b in self.blocks:
            x = torch.relu(b(x))
        return self.classifier(x.mean((2, 3)))

# the checkpoint written by an earlier run (torch.load(..., map_location="cpu") returns this)
_old = SuperNet()
_old_opt = torch.optim.SGD(_old.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
for _p in _old.parameters():
    _p.grad = torch.ones_like(_p)
_old_opt.step()
checkpoint = {"state_dict": _old.state_dict(), "optimizer": _old_opt.state_dict(), "epoch": 3}

model = SuperNet()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
model.load_state_dict(checkpoint["state_dict"])
optimizer.load_state_dict(checkpoint["optimizer"])
start_epoch = checkpoint["epoch"] + 1
model = model.to("cuda:0")
# stand-in for loss.backward() (fake cuda tensors cannot run autograd)
for p in model.parameters():
    p.grad = torch.ones_like(p)
'''
CELL = '''
optimizer.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
for state in optimizer.state.values():
    for k, v in state.items():
        if torch.is_tensor(v):
            state[k] = v.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
