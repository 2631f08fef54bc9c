"""A recurrent model exported with `torch.export` on the CPU, then `ep.module().to("cuda")`: the initial hidden state the graph creates keeps the traced `device=cpu`.

Source: https://github.com/pytorch/pytorch/issues/151010
"[torch.export] Exported LSTM cannot be move on CUDA device": the user exported an LSTM model with CPU
example inputs, moved the exported module to CUDA and ran it on CUDA inputs, which fails with a
device mismatch. The maintainer: "Export will always specialize on devices. So when you export the
first time, you should use same device that you are planning to run the exported artifact on"; the
user found `move_to_device_pass`, which rewrites the device arguments in the graph (and proposed
banning `module.to()` on exported modules).
Stand-in: a GRU-style recurrence (fake CUDA tensors cannot run `nn.LSTM`) written out as the graph
module export produced: its `forward` creates the zero initial state with the device that was
recorded at export time; `.to()` moves only parameters and buffers.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class ExportedGraphModule(nn.Module):     # ep.module(): the graph recorded by torch.export.export(model, (x,))
    def __init__(self, input_size=8, hidden_size=16):
        super().__init__()
        self.weight_ih = nn.Parameter(torch.randn(hidden_size, input_size) * 0.1)
        self.weight_hh = nn.Parameter(torch.randn(hidden_size, hidden_size) * 0.1)
        self.fc = nn.Linear(hidden_size, 2)
        self.hidden_size = hidden_size

    def forward(self, x):
        h = torch.zeros(x.shape[0], self.hidden_size, dtype=torch.float32, device=torch.device("cpu"))
        for t in range(x.shape[1]):
            h = torch.tanh(x[:, t] @ self.weight_ih.t() + h @ self.weight_hh.t())
        return self.fc(h)

x = torch.randn(4, 5, 8)
exported_module = ExportedGraphModule()    # ep = torch.export.export(model, (x,)); ep.module()
print(exported_module(x).shape)            # fine on the CPU
exported_module = exported_module.to("cuda:0")
x_cuda = torch.randn(4, 5, 8, device="cuda:0")
'''
CELL = '''
out = exported_module(x_cuda)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["exported_module"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('h = torch.zeros(x.shape[0], self.hidden_size, dtype=torch.float32, device=torch.device("cpu"))',
                  'h = torch.zeros(x.shape[0], self.hidden_size, dtype=torch.float32, device=x.device)')
CLEAN = False
