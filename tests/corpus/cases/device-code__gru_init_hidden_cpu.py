"""A GRU model's init_hidden() builds the initial state on the CPU; the model and data are on the GPU.

Source: https://github.com/talipucar/CPC/issues/1
The user moved the CPC model and every batch to cuda, yet the GRU failed with "Input and hidden
tensors are not at the same device, found input tensor at cuda:0 and hidden tensor at CPU": the
model's own init_hidden() calls torch.zeros(...) without a device, so every new state is on cpu.
Simulated with meta as the accelerator (a fake cuda GRU cannot run on this CPU build).
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class CPC(nn.Module):
    def __init__(self, n_features=8, hidden_size=16, n_layers=1):
        super().__init__()
        self.n_layers = n_layers
        self.hidden_size = hidden_size
        self.encoder = nn.Linear(n_features, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, n_layers, batch_first=True)

    def init_hidden(self, batch_size):
        return torch.zeros(self.n_layers, batch_size, self.hidden_size)

    def forward(self, x, hidden):
        z = self.encoder(x)
        output, hidden = self.gru(z, hidden)
        return output, hidden

cpc = CPC().to("meta")
x_batch = torch.randn(4, 12, 8).to("meta")
'''
CELL = '''
hidden = cpc.init_hidden(x_batch.shape[0])
output, hidden = cpc(x_batch, hidden)
'''
EXPECT_ERROR = "Input and hidden tensors are not at the same device"
CULPRITS = ["hidden"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "torch.zeros(self.n_layers, batch_size, self.hidden_size)",
    "torch.zeros(self.n_layers, batch_size, self.hidden_size, device=self.encoder.weight.device)",
)
CLEAN = False
