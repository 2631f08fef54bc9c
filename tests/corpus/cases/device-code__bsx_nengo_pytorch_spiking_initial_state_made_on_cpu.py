"""pytorch-spiking `SpikingActivation`: the initial voltage it draws when none is given is a CPU tensor, the layer's input is on the GPU.

Source: https://github.com/nengo/pytorch-spiking/issues/6
"In the functional.py, SpikingActivation class, forward function ... The initial state which is
initialised if not given prior hand is in the cpu, whereas everything else remains in gpu."
The forward draws `initial_state = torch.rand(inputs.shape[0], inputs.shape[2])` without a device
and adds the per-timestep rates to it. The maintainer's answer is to pass an explicit initial state
placed on the GPU; the code-side fix is to draw it on the input's device.
Stand-ins: the spiking forward (rates -> voltage integration -> floor spikes) as a plain function,
a `SpikingActivation` module and a small rate-coded classifier over (batch, time, units) inputs.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def spiking_activation(inputs, activation, dt=0.001, initial_state=None):
    if initial_state is None:
        initial_state = torch.rand(inputs.shape[0], inputs.shape[2], dtype=inputs.dtype)
    rates = activation(inputs)
    voltage = initial_state
    all_spikes = []
    for i in range(inputs.shape[1]):
        voltage = voltage + rates[:, i] * dt
        n_spikes = torch.floor(voltage)
        voltage = voltage - n_spikes
        all_spikes.append(n_spikes)
    return torch.stack(all_spikes, dim=1) / dt

class SpikingActivation(nn.Module):
    def __init__(self, activation, dt=0.001, spiking_aware_training=True):
        super().__init__()
        self.activation, self.dt = activation, dt
        self.spiking_aware_training = spiking_aware_training

    def forward(self, inputs, initial_state=None):
        return spiking_activation(inputs, self.activation, self.dt, initial_state)

class SpikingNet(nn.Module):
    def __init__(self, n_in=64, n_hidden=128, n_out=10):
        super().__init__()
        self.dense = nn.Linear(n_in, n_hidden)
        self.spiking = SpikingActivation(nn.ReLU())
        self.readout = nn.Linear(n_hidden, n_out)

    def forward(self, x):
        h = self.spiking(self.dense(x))
        return self.readout(h.mean(dim=1))

device = torch.device("cuda:0")
model = SpikingNet().to(device)
x = torch.randn(8, 20, 64, device=device)      # (batch, time steps, features)
'''
CELL = '''
with torch.no_grad():
    out = model(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.spiking"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("initial_state = torch.rand(inputs.shape[0], inputs.shape[2], dtype=inputs.dtype)",
                  "initial_state = torch.rand(inputs.shape[0], inputs.shape[2], dtype=inputs.dtype, device=inputs.device)")
CLEAN = False
