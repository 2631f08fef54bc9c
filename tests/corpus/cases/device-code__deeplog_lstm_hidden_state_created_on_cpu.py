"""DeepLog's LSTM creates its initial hidden state with torch.zeros on the CPU in forward.

Source: https://github.com/aaron-y-chen/deeplog/pull/6
"GPU fix": training on the GPU failed with "Input and hidden tensors are not at the same device,
found input tensor at cuda:0 and hidden tensor at cpu" - `Model.forward` built `h0`/`c0` with
`torch.zeros(...)` and no device; the PR adds `.to(input.device)`. Reduced: the log-key LSTM
with one window batch; SIM meta stands for cpu vs cuda:0.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers, num_keys):
        super(Model, self).__init__()
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_size, num_keys)

    def forward(self, input):
        h0 = torch.zeros(self.num_layers, input.size(0), self.hidden_size)
        c0 = torch.zeros(self.num_layers, input.size(0), self.hidden_size)
        out, _ = self.lstm(input, (h0, c0))
        out = self.fc(out[:, -1, :])
        return out

device = torch.device("meta")   # the GPU (SIM meta: cpu and meta are the two devices)
window_size, input_size, num_classes = 10, 1, 28
model = Model(input_size, 64, 2, num_classes).to(device)
seq = torch.randint(0, num_classes, (32, window_size)).float().view(-1, window_size, input_size).to(device)
'''
CELL = '''
output = model(seq)
'''
EXPECT_ERROR = ("Input and hidden tensors are not at the same device",
                "Expected all tensors to be on the same device", "Expected hidden")
CULPRITS = ["h0"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "c0 = torch.zeros(self.num_layers, input.size(0), self.hidden_size)\n",
    "c0 = torch.zeros(self.num_layers, input.size(0), self.hidden_size)\n"
    "        h0, c0 = h0.to(input.device), c0.to(input.device)\n",
)
CLEAN = False
