"""Hand-written stacked GRU: per-layer `x2h` Linears kept in a Python list never reach the GPU.

Source: https://github.com/pytorch/pytorch/issues/21905
"Module to device can not move function list to device": the user built, for each layer,
`temp1 = nn.Linear(input_size, 3 * hidden_size)` and `temp2 = nn.Linear(hidden_size, 3 *
hidden_size).to("cuda:0")` and appended them to the lists `self.x2h` / `self.h2h`; after
`.to(device)` the `x2h` weights were still on the CPU (only `h2h` had been moved by hand).
Answer (SsnL): use nn.ModuleList. Stand-in: the GRU cell equations around those two lists.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

class GRUModel(nn.Module):
    def __init__(self, input_size, hidden_size, layn, bias=True):
        super(GRUModel, self).__init__()
        self.hidden_size = hidden_size
        self.bias = bias
        self.layn = layn
        self.x2h = []
        self.h2h = []
        for x in range(layn):
            temp1 = nn.Linear(input_size, 3 * hidden_size, bias=self.bias)
            temp2 = nn.Linear(hidden_size, 3 * hidden_size, bias=self.bias).to("cuda:0")
            self.x2h.append(temp1)
            self.h2h.append(temp2)
            input_size = hidden_size
        self.fc = nn.Linear(hidden_size, 1)

    def forward(self, x, hidden):
        for l in range(self.layn):
            gate_x = self.x2h[l](x)
            gate_h = self.h2h[l](hidden[l])
            i_r, i_i, i_n = gate_x.chunk(3, 1)
            h_r, h_i, h_n = gate_h.chunk(3, 1)
            resetgate = torch.sigmoid(i_r + h_r)
            inputgate = torch.sigmoid(i_i + h_i)
            newgate = torch.tanh(i_n + (resetgate * h_n))
            x = newgate + inputgate * (hidden[l] - newgate)
        return self.fc(x)

device = torch.device("cuda:0")
model = GRUModel(input_size=10, hidden_size=20, layn=2).to(device)
x = torch.randn(8, 10, device=device)
hidden = torch.zeros(2, 8, 20, device=device)
'''
CELL = '''
out = model(x, hidden)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.x2h"]
FIX = "namespace"
REFERENCE_FIX = '''
model.x2h = [layer.to(device) for layer in model.x2h]
'''
REFERENCE_EDIT = None
CLEAN = False
