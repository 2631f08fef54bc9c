"""pytorch-spiking SpikingActivation on the GPU: the initial voltage state made when none is given is on the CPU.

Source: https://github.com/nengo/pytorch-spiking/issues/6
"In the functional.py, SpikingActivation class, forward function ... The initial state which is
initialised if not given prior hand is in the cpu, whereas everything else remains in gpu." The
maintainer: the state is not assumed to be on the GPU; "You can opt-in to GPU usage by passing in
an explicit initial state (which you can assign to the GPU)".
Stand-in: pytorch_spiking.SpikingActivation (ReLU base activation, dt, time loop over the second
axis) with the `torch.rand` initial state; the user's model wraps it after a Linear and passes no
initial state.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

class SpikingActivation(torch.nn.Module):
    def __init__(self, activation, dt=0.001, initial_state=None, spiking_aware_training=True, return_sequences=True):
        super().__init__()
        self.activation = activation
        self.dt = dt
        self.initial_state = initial_state
        self.return_sequences = return_sequences

    def forward(self, inputs, initial_state=None):
        if initial_state is None:
            initial_state = self.initial_state
        if initial_state is None:
            initial_state = torch.rand(inputs.shape[0], inputs.shape[2])
        voltage = initial_state
        outputs = []
        for t in range(inputs.shape[1]):
            rates = self.activation(inputs[:, t]) * self.dt
            voltage = voltage + rates
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
        h = self.spiking(self.dense(x))
        return self.out(h.mean(dim=1))

device = torch.device("cuda:0")
model = Model().to(device)
images = torch.rand(16, 10, 784, device=device)      # (batch, n_steps, features)
'''
CELL = '''
logits = model(images)
print(logits.shape)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.spiking"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("h = self.spiking(self.dense(x))",
                  "h = self.dense(x)\n        h = self.spiking(h, initial_state=torch.zeros(h.shape[0], h.shape[2], device=h.device))")
CLEAN = False
