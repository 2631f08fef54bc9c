"""snnTorch Leaky(init_hidden=True) trained on cuda, model moved to the CPU: the hidden `mem` stays on cuda.

Source: https://github.com/jeshraghian/snntorch/issues/225
The user trained a `Net` whose `self.model` is `nn.Sequential(nn.Linear(10, 10),
snn.Leaky(beta=0.9, init_hidden=True, output=True, reset_mechanism='zero'))` on
torch.device('cuda'), then moved the model to torch.device('cpu') and got "Expected all tensors
to be on the same device, but found at least two devices, cuda:0 and cpu!". They traced it to
`mem` in Leaky used by `_base_state_function_hidden()`: the hidden state is a plain attribute
that `Module.to()` does not move. Re-initialising the state on the new device (`module.mem =
module.mem.to(...)`, the loop the user had commented out) makes it run.
Stand-in: Leaky reduced to its init_hidden state handling (state sized lazily on the first
input and re-used afterwards).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

class Leaky(nn.Module):
    """snn.Leaky(init_hidden=True) stand-in: the hidden membrane is a plain attribute."""
    def __init__(self, beta, init_hidden=False, output=False, reset_mechanism="subtract"):
        super().__init__()
        self.register_buffer("beta", torch.as_tensor(beta))
        self.register_buffer("threshold", torch.as_tensor(1.0))
        self.init_hidden, self.output, self.reset_mechanism = init_hidden, output, reset_mechanism
        self.mem = torch.zeros(0)

    def _base_state_function_hidden(self, input_):
        return self.beta.clamp(0, 1) * self.mem + input_

    def forward(self, input_):
        if self.mem.shape != input_.shape:       # lazy init: first call sizes the state
            self.mem = torch.zeros_like(input_)
        self.mem = self._base_state_function_hidden(input_)
        spk = (self.mem > self.threshold).float()
        self.mem = self.mem * (1 - spk)          # reset_mechanism='zero'
        return (spk, self.mem) if self.output else spk

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = torch.nn.Sequential(
            nn.Linear(10, 10),
            Leaky(beta=0.9, init_hidden=True, output=True, reset_mechanism='zero'),
        )

    def forward(self, x):
        spike_recording = []
        for step in range(x.shape[0]):
            spk, mem = self.model(x[step])
            spike_recording.append(spk)
        return torch.stack(spike_recording)

net = Net().to(torch.device('cuda:0'))
with torch.no_grad():
    net(torch.rand(5, 4, 10, device='cuda:0'))          # training on the GPU
net = net.to(torch.device('cpu'))                        # the loaded model moved to the CPU
x = torch.rand(5, 4, 10)
'''
CELL = '''
spk_rec = net(x)
print(spk_rec.shape)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["net.model[1]"]
FIX = "namespace"
REFERENCE_FIX = '''
net.model[1].mem = net.model[1].mem.to('cpu')
'''
REFERENCE_EDIT = None
CLEAN = False
