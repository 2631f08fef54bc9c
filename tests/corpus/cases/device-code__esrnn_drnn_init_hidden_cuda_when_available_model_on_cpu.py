"""ESRNN (esrnn_torch) with `device='cpu'` on a machine with a GPU: the dilated RNN's initial state goes to CUDA anyway.

Source: https://github.com/kdgutier/esrnn_torch/issues/14
Running the M4 example with `ESRNN(..., device='cpu')`, `model.fit(...)` failed with "Input and hidden
tensors are not at the same device, found input tensor at cpu and hidden tensor at cuda:0": the
DRNN module (from pytorch-dilated-rnn) decides with a module-level
`use_cuda = torch.cuda.is_available()` and calls `.cuda()` on the zero hidden/cell states it
creates, whatever device the model and series are on. Stand-in: DRNN with its init_hidden /
_apply_cell path and a small ES-RNN head; "meta" plays the GPU, so the CPU model trains for real,
and `torch.cuda.is_available()` (true there) is written as `gpu_available()`.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def gpu_available():
    return True      # torch.cuda.is_available() on the reporter's machine

use_cuda = gpu_available()

class DRNN(nn.Module):
    def __init__(self, n_input, n_hidden, n_layers, dilations, cell_type="LSTM"):
        super().__init__()
        self.dilations = dilations
        self.cell_type = cell_type
        self.cells = nn.ModuleList([nn.LSTM(n_input if i == 0 else n_hidden, n_hidden) for i in range(n_layers)])

    def init_hidden(self, batch_size, hidden_dim):
        hidden = torch.zeros(batch_size, hidden_dim)
        memory = torch.zeros(batch_size, hidden_dim)
        if use_cuda:
            hidden, memory = hidden.to("meta"), memory.to("meta")      # .cuda()
        return hidden, memory

    def _prepare_inputs(self, inputs, rate):
        return torch.cat([inputs[j::rate, :, :] for j in range(rate)], 1)

    def _split_outputs(self, dilated_outputs, rate):
        batchsize = dilated_outputs.size(1) // rate
        blocks = [dilated_outputs[:, i * batchsize:(i + 1) * batchsize, :] for i in range(rate)]
        interleaved = torch.stack(blocks).transpose(1, 0).contiguous()
        return interleaved.view(dilated_outputs.size(0) * rate, batchsize, dilated_outputs.size(2))

    def _apply_cell(self, dilated_inputs, cell, batch_size, rate, hidden_size):
        c, m = self.init_hidden(batch_size * rate, hidden_size)
        hidden = (c.unsqueeze(0), m.unsqueeze(0))
        dilated_outputs, hidden = cell(dilated_inputs, hidden)
        return dilated_outputs, hidden

    def forward(self, inputs):
        outputs = []
        for cell, dilation in zip(self.cells, self.dilations):
            dilated_inputs = self._prepare_inputs(inputs, dilation)
            dilated_outputs, _ = self._apply_cell(dilated_inputs, cell, inputs.size(1), dilation, cell.hidden_size)
            inputs = self._split_outputs(dilated_outputs, dilation)
            outputs.append(inputs)
        return inputs, outputs

class _ESRNN(nn.Module):
    def __init__(self, input_size=4, output_size=6, state_hsize=40, dilations=((1,), (6,))):
        super().__init__()
        self.rnn_stack = nn.ModuleList([DRNN(input_size if i == 0 else state_hsize, state_hsize, 1, list(d))
                                        for i, d in enumerate(dilations)])
        self.adapterW = nn.Linear(state_hsize, output_size)

    def forward(self, windows_y):
        x = windows_y
        for layer in self.rnn_stack:
            x, _ = layer(x)
        return self.adapterW(x)

class ESRNN:
    def __init__(self, max_epochs=25, batch_size=4, learning_rate=1e-4, input_size=4, output_size=6,
                 state_hsize=40, dilations=((1,), (6,)), device="cpu"):
        self.device = device
        self.max_epochs = max_epochs
        self.esrnn = _ESRNN(input_size, output_size, state_hsize, dilations).to(device)
        self.optimizer = torch.optim.Adam(self.esrnn.parameters(), lr=learning_rate)

    def fit(self, windows_y, windows_y_hat):
        for _ in range(self.max_epochs):
            self.optimizer.zero_grad()
            y_hat = self.esrnn(windows_y.to(self.device))
            loss = (y_hat - windows_y_hat.to(self.device)).abs().mean()
            loss.backward()
            self.optimizer.step()
        return self

model = ESRNN(max_epochs=2, batch_size=4, learning_rate=1e-4, input_size=4, output_size=6,
              state_hsize=40, dilations=((1,), (6,)), device="cpu")
windows_y = torch.randn(12, 4, 4)        # (n_windows, batch, input_size) from the M4 Yearly series
windows_y_hat = torch.randn(12, 4, 6)
'''
CELL = '''
model.fit(windows_y, windows_y_hat)
'''
EXPECT_ERROR = "Input and hidden tensors are not at the same device"
CULPRITS = ["model.esrnn"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        if use_cuda:\n", "        if next(self.parameters()).device.type != \"cpu\":\n")
CLEAN = False
