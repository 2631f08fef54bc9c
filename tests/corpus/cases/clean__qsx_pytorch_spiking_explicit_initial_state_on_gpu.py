"""Look-alike: pytorch-spiking SpikingActivation given an explicit initial voltage state made on the GPU.

Source: https://www.nengo.ai/pytorch-spiking/reference.html
`pytorch_spiking.SpikingActivation(activation, dt=0.001, initial_state=None, ...)` draws a random
initial voltage on the CPU when none is passed; the documented `initial_state` argument lets the
caller supply it. Here the model passes `initial_state=torch.zeros(..., device=h.device)`, so the
spiking loop runs on the GPU with the cuda Linear layers around it.
Stand-in: SpikingActivation (ReLU base activation, time loop over axis 1).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch

class SpikingActivation(torch.nn.Module):
    def __init__(self, activation, dt=0.001, initial_state=None):
        super().__init__()
        self.activation, self.dt, self.initial_state = activation, dt, initial_state

    def forward(self, inputs, initial_state=None):
        if initial_state is None:
            initial_state = self.initial_state
        if initial_state is None:
            initial_state = torch.rand(inputs.shape[0], inputs.shape[2])
        voltage, outputs = initial_state, []
        for t in range(inputs.shape[1]):
            voltage = voltage + self.activation(inputs[:, t]) * self.dt
            n_spikes = torch.floor(voltage)
            voltage = voltage - n_spikes
            outputs.append(n_spikes / self.dt)
        return torch.stack(outputs, dim=1)

class Model(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.dense = torch.nn.Linear(784, 128)
        self.spiking = SpikingActivation(torch.nn.ReLU())
        self.out = torch.nn.Linear(128, 10)

    def forward(self, x):
        h = self.dense(x)
        h = self.spiking(h, initial_state=torch.zeros(h.shape[0], h.shape[2], device=h.device))
        return self.out(h.mean(dim=1))

model = Model().to("cuda:0")
images = torch.rand(16, 10, 784, device="cuda:0")
'''
CELL = '''
logits = model(images)
print(logits.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
