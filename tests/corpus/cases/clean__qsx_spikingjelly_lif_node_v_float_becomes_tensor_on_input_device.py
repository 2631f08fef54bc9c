"""Look-alike: spikingjelly LIFNode keeps `v` as a Python float after reset and turns it into a tensor on the input's device.

Source: https://github.com/fangwei123456/spikingjelly/blob/master/spikingjelly/activation_based/neuron.py
`BaseNode` registers its membrane memory as the float `v_reset` (0.), and `v_float_to_tensor(x)`
replaces it with `torch.full_like(x.data, v_init)` on the first step, so the state is created
wherever the input is; `functional.reset_net` puts the float back. A state that never went through
`Module.to()` beside a cuda network, yet it runs.
Stand-in: LIFNode single-step charge/fire/hard-reset with a Heaviside spike; Conv-BN-LIF net.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class LIFNode(nn.Module):
    def __init__(self, tau=2.0, v_threshold=1.0, v_reset=0.0):
        super().__init__()
        self.tau, self.v_threshold, self.v_reset = tau, v_threshold, v_reset
        self.v = v_reset

    def v_float_to_tensor(self, x):
        if isinstance(self.v, float):
            v_init = self.v
            self.v = torch.full_like(x.data, v_init)

    def reset(self):
        self.v = self.v_reset

    def forward(self, x):
        self.v_float_to_tensor(x)
        self.v = self.v + (x - (self.v - self.v_reset)) / self.tau
        spike = (self.v - self.v_threshold >= 0).to(x.dtype)
        self.v = spike * self.v_reset + (1.0 - spike) * self.v
        return spike

def reset_net(net):
    for m in net.modules():
        if hasattr(m, "reset"):
            m.reset()

net = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.BatchNorm2d(8), LIFNode(),
                    nn.Flatten(), nn.Linear(8 * 28 * 28, 10), LIFNode()).to("cuda:0").eval()
img = torch.rand(4, 1, 28, 28, device="cuda:0")
T = 4
'''
CELL = '''
out_fr = 0.
for t in range(T):
    out_fr = out_fr + net(img)
out_fr = out_fr / T
reset_net(net)
print(out_fr.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
