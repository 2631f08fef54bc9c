"""Look-alike: SpikingJelly's lif_fc_mnist training step; `out_fr` starts as a Python float and the one-hot label is cast to float.

Source: https://github.com/fangwei123456/spikingjelly/blob/master/spikingjelly/activation_based/examples/lif_fc_mnist.py
The example moves `img, label` from the CPU DataLoader with `.to(args.device)`, makes
`label_onehot = F.one_hot(label, 10).float()`, accumulates `out_fr = 0.` then `out_fr += net(encoder(img))`
over T steps (a float that becomes a cuda tensor), divides by T, computes `F.mse_loss(out_fr, label_onehot)`
and calls `functional.reset_net(net)`. The LIF neuron's `v` starts as a float and becomes a tensor
on the input's device. It runs.
Stand-in: `PoissonEncoder`, `LIFNode` (decay_input, hard reset, Heaviside) and `reset_net`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class PoissonEncoder(nn.Module):
    def forward(self, x):
        return torch.rand_like(x).le(x).to(x)

class LIFNode(nn.Module):
    def __init__(self, tau=2.0, v_threshold=1.0, v_reset=0.0):
        super().__init__()
        self.tau, self.v_threshold, self.v_reset = tau, v_threshold, v_reset
        self.v = v_reset

    def reset(self):
        self.v = self.v_reset

    def forward(self, x):
        if isinstance(self.v, float):
            self.v = torch.full_like(x, self.v)
        self.v = self.v + (x - (self.v - self.v_reset)) / self.tau
        spike = (self.v - self.v_threshold >= 0).to(x)
        self.v = (1.0 - spike) * self.v + spike * self.v_reset
        return spike

class functional:
    @staticmethod
    def reset_net(net):
        for m in net.modules():
            if hasattr(m, "reset"):
                m.reset()

class SNN(nn.Module):
    def __init__(self, tau):
        super().__init__()
        self.layer = nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 10, bias=False), LIFNode(tau=tau))
    def forward(self, x):
        return self.layer(x)

device = torch.device("cuda:0")
T = 4
net = SNN(tau=2.0).to(device)
encoder = PoissonEncoder()
img_cpu = torch.rand(32, 1, 28, 28)
label_cpu = torch.randint(0, 10, (32,))
'''
CELL = '''
img = img_cpu.to(device)
label = label_cpu.to(device)
label_onehot = F.one_hot(label, 10).float()
out_fr = 0.
for t in range(T):
    encoded_img = encoder(img)
    out_fr += net(encoded_img)
out_fr = out_fr / T
loss = F.mse_loss(out_fr, label_onehot)
functional.reset_net(net)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
