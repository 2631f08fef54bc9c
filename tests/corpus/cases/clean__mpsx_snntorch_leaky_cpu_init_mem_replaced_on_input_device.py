"""snntorch after the Apple Silicon refactor: `init_leaky()` hands back a CPU placeholder and the neuron rebuilds it on the input's device.

Source: https://github.com/jeshraghian/snntorch/pull/160
"Changed every call to `device` from conditional statements to copying the device from some input
tensor", which fixed Apple Silicon GPUs (`device = "mps"`). Since then `mem = lif.init_leaky()`
returns an empty CPU tensor and the first forward replaces it with `torch.zeros_like(input_)`, so a
training loop holds a CPU `mem` beside a GPU network and GPU spikes. Look-alike: the CPU state
tensor in the namespace is never mixed with device tensors. Stand-in: Leaky reduced to that state
handling, reset and the Heaviside spike; cuda:0 stands in for mps.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class Leaky(nn.Module):
    def __init__(self, beta, threshold=1.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def init_leaky(self):
        return torch.zeros(0)                          # placeholder, device resolved at forward

    def forward(self, input_, mem):
        if not mem.shape == input_.shape:
            mem = torch.zeros_like(input_, device=input_.device)
        reset = (mem - self.threshold > 0).float()
        mem = self.beta * mem + input_ - reset * self.threshold
        spk = (mem - self.threshold > 0).float()
        return spk, mem

device = torch.device("cuda:0")                        # "mps"
fc1 = nn.Linear(784, 100).to(device)
lif1 = Leaky(beta=0.9).to(device)
fc2 = nn.Linear(100, 10).to(device)
lif2 = Leaky(beta=0.9).to(device)
data = torch.rand(8, 784).to(device)
mem1 = lif1.init_leaky()
mem2 = lif2.init_leaky()
'''
CELL = '''
spk_rec = []
for step in range(5):
    cur1 = fc1(data)
    spk1, mem1 = lif1(cur1, mem1)
    cur2 = fc2(spk1)
    spk2, mem2 = lif2(cur2, mem2)
    spk_rec.append(spk2)
spk_out = torch.stack(spk_rec)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
