"""SpikingJelly clock-driven neurons keep the membrane potential `v` as a Python float until the first input, then build it on the input's device.

Source: https://github.com/fangwei123456/spikingjelly/blob/master/spikingjelly/clock_driven/neuron.py
`BaseNode.__init__` stores `self.v = v_reset` (a float), and before charging `v_float_to_tensor`
replaces it with `torch.full_like(x.data, v)`, so a network moved to the GPU needs no state
tensor moved. `functional.reset_net` puts the float back. Look-alike: a neuron state that is not on
the GPU beside a GPU network, that runs.
Stand-ins: an LIF node with that state handling, a Conv/Linear SNN over T time steps.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class LIFNode(nn.Module):
    def __init__(self, tau=2.0, v_threshold=1.0, v_reset=0.0):
        super().__init__()
        self.tau, self.v_threshold, self.v_reset = tau, v_threshold, v_reset
        self.v = v_reset

    def v_float_to_tensor(self, x):
        if isinstance(self.v, float):
            v_init = self.v
            self.v = torch.full_like(x.data, v_init)

    def forward(self, x):
        self.v_float_to_tensor(x)
        self.v = self.v + (x - (self.v - self.v_reset)) / self.tau
        spike = (self.v >= self.v_threshold).to(x.dtype)
        self.v = self.v * (1.0 - spike) + self.v_reset * spike
        return spike

    def reset(self):
        self.v = self.v_reset

def reset_net(net):
    for m in net.modules():
        if hasattr(m, "reset"):
            m.reset()

net = nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 100), LIFNode(), nn.Linear(100, 10), LIFNode())
net.to("cuda:0")
img = torch.rand(16, 1, 28, 28, device="cuda:0")
T = 4
'''
CELL = '''
with torch.no_grad():
    out_spikes_counter = 0
    for t in range(T):
        out_spikes_counter = out_spikes_counter + net(img)
    firing_rate = out_spikes_counter / T
reset_net(net)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
