"""Look-alike: snnTorch tutorial 5's Net calls `init_leaky()` in forward; the empty membrane is sized lazily on the input's device.

Source: https://snntorch.readthedocs.io/en/latest/tutorials/tutorial_5.html
The tutorial's `Net` runs `mem1 = self.lif1.init_leaky()` and `mem2 = self.lif2.init_leaky()` at
the start of forward, then loops `num_steps` over `fc1 -> lif1 -> fc2 -> lif2`, recording spikes and
membranes; the network is moved with `net = Net().to(device)` and the data with `data.to(device)`.
`init_leaky()` returns an empty tensor created without a device, which Leaky replaces with
`torch.zeros_like(input_)` on the first step: a CPU tensor next to the cuda model that never
reaches a cuda op. It runs.
Stand-in: snn.Leaky (lazy state, subtract reset, Heaviside spike).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class Leaky(nn.Module):
    def __init__(self, beta, threshold=1.0):
        super().__init__()
        self.register_buffer("beta", torch.as_tensor(beta))
        self.register_buffer("threshold", torch.as_tensor(threshold))

    def init_leaky(self):
        return torch.zeros(0)

    def forward(self, input_, mem):
        if mem.shape != input_.shape:
            mem = torch.zeros_like(input_)
        reset = (mem - self.threshold > 0).float()
        mem = self.beta * mem + input_ - reset * self.threshold
        spk = (mem - self.threshold > 0).float()
        return spk, mem

num_inputs, num_hidden, num_outputs, beta, num_steps = 784, 1000, 10, 0.95, 25

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(num_inputs, num_hidden)
        self.lif1 = Leaky(beta=beta)
        self.fc2 = nn.Linear(num_hidden, num_outputs)
        self.lif2 = Leaky(beta=beta)

    def forward(self, x):
        mem1 = self.lif1.init_leaky()
        mem2 = self.lif2.init_leaky()
        spk2_rec, mem2_rec = [], []
        for step in range(num_steps):
            cur1 = self.fc1(x)
            spk1, mem1 = self.lif1(cur1, mem1)
            cur2 = self.fc2(spk1)
            spk2, mem2 = self.lif2(cur2, mem2)
            spk2_rec.append(spk2)
            mem2_rec.append(mem2)
        return torch.stack(spk2_rec, dim=0), torch.stack(mem2_rec, dim=0)

device = torch.device("cuda:0")
net = Net().to(device)
data = torch.rand(128, 1, 28, 28).to(device)
'''
CELL = '''
spk_rec, mem_rec = net(data.view(128, -1))
print(spk_rec.shape, mem_rec.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
