"""cv-lee/BraTs segmentation `--resume`: `Checkpoint.load` restores the SGD momentum while the net is still on the CPU; `load_model` moves only the net to CUDA afterwards.

Source: https://github.com/cv-lee/BraTs/pull/10
"Update utils.py ... resolved RuntimeError: Expected all tensors to be on the same device, but found
at least two devices, cuda:0 and cpu!" when resuming training. `load_model` builds the net and
`SGD(net.parameters(), momentum=0.9, ...)` on the CPU, calls `Checkpoint(net, optimizer).load(...)`
(`optimizer.load_state_dict` puts the momentum buffers on the parameters' device, the CPU), and only
then `net.cuda(); net = DataParallel(net)`. The PR moves the optimizer state to CUDA inside
`Checkpoint.load`. Reduced: a two-conv stand-in for the UNet, the checkpoint file by the dict
`torch.load` returns (on the CPU), one training step with `batch_loss.backward()` replaced by setting
`.grad` (fake cuda tensors cannot run autograd), `.cuda()` written as `.to("cuda:0")`.
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
import torch.nn as nn
from torch.optim import SGD

class UNet(nn.Module):                               # models/unet.py stand-in
    def __init__(self, in_channel=4, class_num=4, drop_rate=0.0):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv2d(in_channel, 16, 3, padding=1), nn.ReLU())
        self.out = nn.Conv2d(16, class_num, 1)
    def forward(self, x):
        return torch.sigmoid(self.out(self.enc(x)))

class Checkpoint:
    def __init__(self, model, optimizer=None, epoch=0, best_score=1):
        self.model = model
        self.optimizer = optimizer
        self.epoch = epoch
        self.best_score = best_score

    def load(self, path):
        checkpoint = path                              # torch.load(path)
        self.model.load_state_dict(checkpoint["model_state"])
        self.epoch = checkpoint["epoch"]
        self.best_score = checkpoint["best_score"]
        if self.optimizer:
            self.optimizer.load_state_dict(checkpoint["optimizer_state"])

def dice_coef(preds, targets):
    smooth = 1.0
    intersection = (preds * targets).sum()
    return 1 - (2. * intersection + smooth) / (preds.sum() + targets.sum() + smooth)

# the checkpoint an earlier run saved (./checkpoint/unet.tar)
_net = UNet()
_opt = SGD(_net.parameters(), lr=1e-2, momentum=0.9, weight_decay=1e-4)
for _p in _net.parameters():
    _p.grad = torch.ones_like(_p)
_opt.step()
saved = {"model_state": _net.state_dict(), "optimizer_state": _opt.state_dict(), "epoch": 7, "best_score": 0.71}
del _net, _opt

device = 'cuda'                                      # config.device
net = UNet(4, 4, drop_rate=0.3)
optimizer = SGD(net.parameters(), lr=1e-2, momentum=0.9, weight_decay=1e-4)
checkpoint = Checkpoint(net, optimizer)
checkpoint.load(saved)
best_score = checkpoint.best_score
start_epoch = checkpoint.epoch + 1
if device == 'cuda':
    net.to("cuda:0")                                 # net.cuda()
    net = torch.nn.DataParallel(net)
trainloader = [(torch.randn(2, 4, 32, 32), (torch.rand(2, 4, 32, 32) > 0.5).float(), ["BraTS19_001"])]
'''
CELL = '''
net.train(True)
for idx, (inputs, targets, paths) in enumerate(trainloader):
    inputs, targets = inputs.to("cuda:0"), targets.to("cuda:0")
    outputs = net(inputs)
    batch_loss = dice_coef(outputs, targets)
    optimizer.zero_grad()
    for p in net.parameters():                       # stand-in for batch_loss.backward()
        p.grad = torch.ones_like(p)
    optimizer.step()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["optimizer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""            self.optimizer.load_state_dict(checkpoint["optimizer_state"])
""", """            self.optimizer.load_state_dict(checkpoint["optimizer_state"])
            for state in self.optimizer.state.values():
                for k, v in state.items():
                    if torch.is_tensor(v):
                        state[k] = v.to("cuda:0")
""")
CLEAN = False
