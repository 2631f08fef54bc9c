"""TaylorSENet resumed from a checkpoint: the Solver restores Adam before the network is moved to the GPU.

Source: https://github.com/Andong-Li-speech/TaylorSENet/issues/2
"Checkpoint之后报错" (error after resuming from a checkpoint): the first `self.optimizer.step()` failed
in `exp_avg.mul_(beta1).add_(grad, ...)` with "found at least two devices, cuda:0 and cpu". The
`Solver.__init__` calls `_reset()`, which with `is_resume_reload` loads the model and the
`optimizer_state_dict` while the net is still on the CPU; `train()` only then does
`self.net.to(self.device)`, so Adam's moment buffers stay on the CPU. Stand-in: the Solver reduced,
a small net, and the checkpoint written by an earlier run; grads set by hand (no backward in the
fake-cuda simulation).
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn

class TaylorSENet(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Conv2d(2, 8, (1, 3), padding=(0, 1))
        self.dec = nn.Conv2d(8, 2, (1, 3), padding=(0, 1))

    def forward(self, x):
        return self.dec(torch.relu(self.enc(x)))

# the checkpoint saved by the previous run (torch.load(...) of "Epoch_10_TaylorSENet_...")
_net = TaylorSENet()
_opt = torch.optim.Adam(_net.parameters(), lr=5e-4, weight_decay=1e-7)
for _p in _net.parameters():
    _p.grad = torch.ones_like(_p)
_opt.step()
checkpoint = {"model_state_dict": _net.state_dict(), "optimizer_state_dict": _opt.state_dict(),
              "start_epoch": 10}

class Solver:
    """solver.Solver (reduced): resume in __init__, move the net in train()."""
    def __init__(self, net, optimizer, is_resume_reload=True):
        self.net = net
        self.optimizer = optimizer
        self.is_resume_reload = is_resume_reload
        self._reset()
        self.device = torch.device("cuda:0")

    def _reset(self):
        if self.is_resume_reload:
            self.net.load_state_dict(checkpoint["model_state_dict"])
            self.optimizer.load_state_dict(checkpoint["optimizer_state_dict"])
            self.start_epoch = checkpoint["start_epoch"]
        else:
            self.start_epoch = 0

    def train(self):
        self.net.to(self.device)
        self.net.train()
        batch = torch.randn(2, 2, 10, 16, device=self.device)
        est = self.net(batch)
        for p in self.net.parameters():        # stand-in for batch_loss.backward()
            p.grad = torch.ones_like(p)
        self.optimizer.step()
        return est

net = TaylorSENet()
solver = Solver(net, torch.optim.Adam(net.parameters(), lr=5e-4, weight_decay=1e-7))
'''
CELL = '''
solver.train()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["solver.optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
for state in solver.optimizer.state.values():
    for k, v in state.items():
        if torch.is_tensor(v) and k != "step":
            state[k] = v.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
