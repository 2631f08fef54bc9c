"""BindsNET `network.run(inputs={"I": price_data})` with the network on the GPU and `price_data` on the CPU.

Source: https://github.com/BindsNET/bindsnet/issues/569
The user (Kaggle notebook) moved the network to cuda and called `network.run(inputs={"I": price_data},
time=time)`; the Input layer stores the input as its spikes (`self.s = x`) and updates its trace with
`self.x.masked_fill_(self.s.bool(), self.trace_scale)`: "expected self and mask to be on the same
device, but got mask on cpu and self on cuda:0". The mask is the user's input, so `price_data`
was still on the CPU; moving it to the network's device is the fix.
Stand-in: BindsNET's Network/Input reduced to the per-step input loop, the trace buffers and
`masked_fill_`; a LIF-like layer behind a Connection.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn

class Input(nn.Module):
    def __init__(self, n, traces=True, tc_trace=20.0, trace_scale=1.0):
        super().__init__()
        self.n, self.traces, self.trace_scale = n, traces, trace_scale
        self.register_buffer("s", torch.zeros(1, n, dtype=torch.bool))
        self.register_buffer("x", torch.zeros(1, n))
        self.register_buffer("trace_decay", torch.exp(torch.tensor(-1.0 / tc_trace)))

    def forward(self, x):
        self.s = x
        if self.traces:
            self.x *= self.trace_decay
            self.x.masked_fill_(self.s.bool(), self.trace_scale)

class LIFNodes(nn.Module):
    def __init__(self, n, thresh=-52.0, rest=-65.0, decay=0.99):
        super().__init__()
        self.register_buffer("v", torch.full((1, n), rest))
        self.register_buffer("thresh", torch.tensor(thresh))
        self.register_buffer("rest", torch.tensor(rest))
        self.decay = decay

    def forward(self, x):
        self.v = self.decay * (self.v - self.rest) + self.rest + x
        s = self.v >= self.thresh
        self.v = torch.where(s, self.rest, self.v)
        return s

class Network(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleDict()
        self.connections = nn.ParameterDict()

    def run(self, inputs, time):
        for t in range(time):
            for l in self.layers:
                if l in inputs:
                    self.layers[l].forward(x=inputs[l][t])
            self.layers["O"](self.layers["I"].s.float() @ self.connections["I_O"])

network = Network()
network.layers["I"] = Input(n=30)
network.layers["O"] = LIFNodes(n=10)
network.connections["I_O"] = nn.Parameter(torch.rand(30, 10) * 5)
device = torch.device("cuda:0")
network.to(device)

time = 50
price_data = torch.rand(time, 1, 30) > 0.8      # the user's spike-encoded prices
'''
CELL = '''
network.run(inputs={"I": price_data}, time=time)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "same device")
CULPRITS = ["price_data"]
FIX = "namespace"
REFERENCE_FIX = '''
price_data = price_data.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
