"""BindsNET nodes register their state (`v`, `s`, `rest`) as buffers, so `network.to(device)` moves them and `set_batch_size` rebuilds them on `self.v.device`.

Source: https://github.com/BindsNET/bindsnet/blob/master/bindsnet/network/nodes.py
`LIFNodes.__init__` registers `rest`, `thresh`, `v` and `s` with `register_buffer`; the network is
built on the CPU and moved with `network.to("cuda")`; `set_batch_size` then allocates
`self.v = self.rest * torch.ones(batch_size, *self.shape, device=self.v.device)`. Look-alike:
state created on the CPU at construction, followed through `Module.to`, that runs.
Stand-ins: LIF nodes with those buffers, a one-connection network, a Poisson-like input batch.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class LIFNodes(nn.Module):
    def __init__(self, n, rest=-65.0, reset=-65.0, thresh=-52.0, tc_decay=100.0):
        super().__init__()
        self.n, self.shape = n, (n,)
        self.register_buffer("rest", torch.tensor(rest))
        self.register_buffer("reset", torch.tensor(reset))
        self.register_buffer("thresh", torch.tensor(thresh))
        self.register_buffer("decay", torch.tensor(1.0 / tc_decay))
        self.register_buffer("v", torch.FloatTensor())
        self.register_buffer("s", torch.BoolTensor())

    def set_batch_size(self, batch_size):
        self.v = self.rest * torch.ones(batch_size, *self.shape, device=self.v.device)
        self.s = torch.zeros(batch_size, *self.shape, device=self.s.device, dtype=torch.bool)

    def forward(self, x):
        self.v = self.decay * (self.v - self.rest) + self.rest + x
        self.s = self.v >= self.thresh
        self.v = torch.where(self.s, self.reset, self.v)
        return self.s

class Network(nn.Module):
    def __init__(self, n_in=784, n_out=100):
        super().__init__()
        self.w = nn.Parameter(torch.rand(n_in, n_out) * 0.3)
        self.layer = LIFNodes(n_out)

    def run(self, inputs, time):
        self.layer.set_batch_size(inputs.shape[1])
        counts = 0
        for t in range(time):
            counts = counts + self.layer(inputs[t].float() @ self.w).float()
        return counts

network = Network()
network.to("cuda:0")
time = 20
inputs = torch.rand(time, 4, 784, device="cuda:0") < 0.1     # PoissonEncoder output, on the GPU
'''
CELL = '''
with torch.no_grad():
    spike_counts = network.run(inputs, time)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
