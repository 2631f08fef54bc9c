"""Resuming pose-estimation training: Adam state loaded into a CPU model, then `DataParallel(net).cuda()`.

Source: https://github.com/Daniil-Osokin/lightweight-human-pose-estimation.pytorch/issues/208
Resuming without `--weights-only` crashed at the first `optimizer.step()` with "found at least two
devices, cuda:0 and cpu". train.py builds the Adam param groups on the CPU network, calls
`optimizer.load_state_dict(checkpoint['optimizer'])` (which casts the moments to the CPU, where
the parameters are), and only then wraps and moves the net with `DataParallel(net).cuda()`; the
moments stay behind. Reduced: no real GPUs, so DataParallel wraps without replicas.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn
import torch.optim as optim
from torch.nn import DataParallel

class PoseEstimationWithMobileNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU())
        self.cpm = nn.Conv2d(8, 8, 3, padding=1)
        self.initial_stage = nn.Conv2d(8, 19 + 38, 1)

    def forward(self, x):
        return self.initial_stage(self.cpm(self.model(x)))

def make_optimizer(net, base_lr=4e-5):
    return optim.Adam([
        {"params": [net.model[0].weight, net.cpm.weight, net.initial_stage.weight]},
        {"params": [net.model[1].weight], "weight_decay": 0},
        {"params": [net.model[0].bias, net.model[1].bias, net.cpm.bias, net.initial_stage.bias],
         "lr": base_lr * 2, "weight_decay": 0},
    ], lr=base_lr, weight_decay=5e-4)

# the checkpoint written by an earlier run
_old = PoseEstimationWithMobileNet()
_old_opt = make_optimizer(_old)
for _p in _old.parameters():
    _p.grad = torch.ones_like(_p)
_old_opt.step()
checkpoint = {"state_dict": _old.state_dict(), "optimizer": _old_opt.state_dict(), "iter": 1}

net = PoseEstimationWithMobileNet()
optimizer = make_optimizer(net)
scheduler = optim.lr_scheduler.MultiStepLR(optimizer, milestones=[100, 200, 260], gamma=0.333)
net.load_state_dict(checkpoint["state_dict"])
optimizer.load_state_dict(checkpoint["optimizer"])
net = DataParallel(net).to("cuda:0")
net.train()
# stand-in for loss.backward() (fake cuda tensors cannot run autograd)
for p in net.parameters():
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
        if torch.is_tensor(v) and k != "step":
            state[k] = v.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
