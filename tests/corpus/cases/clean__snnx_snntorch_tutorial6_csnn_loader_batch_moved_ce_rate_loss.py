"""Look-alike: snnTorch tutorial 6's CSNN training step; DataLoader batches on the CPU are moved before the forward.

Source: https://snntorch.readthedocs.io/en/latest/tutorials/tutorial_6.html
The tutorial builds `net = nn.Sequential(Conv2d, MaxPool2d, snn.Leaky(init_hidden=True), ...).to(device)`,
takes `data, targets = next(iter(train_loader))` (CPU tensors) and moves them with
`data = data.to(device); targets = targets.to(device)` before `forward_pass(net, num_steps, data)`,
which calls `utils.reset(net)` and stacks the output spikes; the loss is `SF.ce_rate_loss()`.
The CPU-side `data_cpu`/`targets_cpu` kept next to the GPU network are never used by the cell.
Stand-in: snn.Leaky with `init_hidden=True` (hidden membrane re-created lazily on the input
device by `reset`), ce_rate_loss reduced to per-step cross entropy.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class Leaky(nn.Module):
    def __init__(self, beta, init_hidden=False, output=False):
        super().__init__()
        self.beta = beta
        self.init_hidden = init_hidden
        self.output = output
        self.mem = None

    def reset_hidden(self):
        self.mem = None

    def forward(self, input_):
        if self.mem is None or self.mem.shape != input_.shape:
            self.mem = torch.zeros_like(input_)
        self.mem = self.beta * self.mem + input_
        spk = (self.mem > 1.0).to(input_.dtype)
        self.mem = self.mem - spk
        if self.output:
            return spk, self.mem
        return spk

class utils:
    @staticmethod
    def reset(net):
        for m in net.modules():
            if isinstance(m, Leaky):
                m.reset_hidden()

class SF:
    class ce_rate_loss:
        def __call__(self, spk_out, targets):
            loss = 0
            for step in range(spk_out.size(0)):
                loss = loss + F.cross_entropy(spk_out[step], targets)
            return loss / spk_out.size(0)

device = torch.device("cuda:0")
beta, num_steps, batch_size = 0.5, 5, 16
net = nn.Sequential(nn.Conv2d(1, 12, 5), nn.MaxPool2d(2), Leaky(beta=beta, init_hidden=True),
                    nn.Conv2d(12, 64, 5), nn.MaxPool2d(2), Leaky(beta=beta, init_hidden=True),
                    nn.Flatten(), nn.Linear(64 * 4 * 4, 10),
                    Leaky(beta=beta, init_hidden=True, output=True)).to(device)

def forward_pass(net, num_steps, data):
    mem_rec, spk_rec = [], []
    utils.reset(net)
    for step in range(num_steps):
        spk_out, mem_out = net(data)
        spk_rec.append(spk_out)
        mem_rec.append(mem_out)
    return torch.stack(spk_rec), torch.stack(mem_rec)

loss_fn = SF.ce_rate_loss()
data_cpu = torch.rand(batch_size, 1, 28, 28)
targets_cpu = torch.randint(0, 10, (batch_size,))
'''
CELL = '''
data = data_cpu.to(device)
targets = targets_cpu.to(device)
spk_rec, mem_rec = forward_pass(net, num_steps, data)
loss_val = loss_fn(spk_rec, targets)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
