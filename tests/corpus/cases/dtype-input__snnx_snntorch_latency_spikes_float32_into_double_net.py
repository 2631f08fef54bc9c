"""snnTorch `spikegen.latency` on float64 data returns float32 spikes; the `.double()` network rejects them.

Source: https://github.com/jeshraghian/snntorch/issues/440
The reporter encoded `x = torch.tensor([...], dtype=torch.float64)` with `spikegen.latency` and
found the spike tensor came back as float32: the latency path allocates its output with the
module-level `dtype = torch.float`, so spikes fed to a model converted with `.double()` hit a dtype
mismatch (fixed in PR #445 by allocating with `data.dtype`). Here the user's encoded `spk_data` is
passed to a double `Net`; casting the encoded spikes to the model's dtype makes it run.
Stand-in: `spikegen.latency` reduced to its default (non-linear, tau=1) path with the module-level
float32 constant; a two-layer fully connected network of Linear + Leaky stand-ins.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn

dtype = torch.float          # snntorch/spikegen.py module-level constant

def latency(data, num_steps=10, threshold=0.01, tau=1, first_spike_time=0, clip=False):
    tau = torch.as_tensor(tau, dtype=data.dtype)
    data = torch.clamp(data, threshold + 1e-9)
    spike_time = tau * torch.log(data / (data - threshold))
    spike_time = spike_time + first_spike_time
    spike_data = torch.zeros((num_steps,) + tuple(data.shape), dtype=dtype)
    idx = torch.clamp(spike_time.round().long(), 0, num_steps - 1)
    spike_data.scatter_(0, idx.unsqueeze(0), 1.0)
    return spike_data

class Leaky(nn.Module):
    def __init__(self, beta):
        super().__init__()
        self.beta = beta
    def forward(self, cur, mem):
        mem = self.beta * mem + cur
        spk = (mem > 1.0).to(mem.dtype)
        return spk, mem - spk

class Net(nn.Module):
    def __init__(self, num_inputs=2, num_hidden=8, num_outputs=2, beta=0.9):
        super().__init__()
        self.fc1 = nn.Linear(num_inputs, num_hidden)
        self.lif1 = Leaky(beta)
        self.fc2 = nn.Linear(num_hidden, num_outputs)
        self.lif2 = Leaky(beta)
    def forward(self, x):
        mem1 = mem2 = 0.0
        spk2_rec = []
        for step in range(x.size(0)):
            spk1, mem1 = self.lif1(self.fc1(x[step]), mem1)
            spk2, mem2 = self.lif2(self.fc2(spk1), mem2)
            spk2_rec.append(spk2)
        return torch.stack(spk2_rec)

net = Net().double()
x = torch.tensor([[0.2, 0.8], [0.5, 0.9]], dtype=torch.float64)
spk_data = latency(x, num_steps=10)
'''
CELL = '''
spk_rec = net(spk_data)
print(spk_rec.dtype, spk_rec.shape)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected scalar type", "same dtype")
CULPRITS = ["spk_data"]
FIX = "namespace"
REFERENCE_FIX = '''
spk_data = spk_data.double()
'''
REFERENCE_EDIT = None
CLEAN = False
