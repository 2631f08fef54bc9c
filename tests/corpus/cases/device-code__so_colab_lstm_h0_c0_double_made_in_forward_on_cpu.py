"""Colab LSTM regressor: `h0`/`c0` are made with torch.zeros(...).double() inside forward, on the CPU.

Source: https://github.com/pytorch/pytorch/issues/52186
"LSTM model error: Cannot move the model and data to GPU device (Running on Google Colab)": the
user moved data, labels and model to `device` and still got "Input and hidden tensors are not at
the same device, found input tensor at cuda:0 and hidden tensor at cpu". The answer: the tensors
created in forward, `h0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size).double()` (and
`c0`), carry no device; create them with `device=x.device, dtype=torch.double`. Stand-in: the
user's LSTM_model (double precision, as in the report) and a random click-feature batch.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class LSTM_model(nn.Module):
    def __init__(self, input_size, hidden_size, num_layers, num_classes):
        super(LSTM_model, self).__init__()
        self.num_layers = num_layers
        self.hidden_size = hidden_size
        self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_size, num_classes)

    def forward(self, x):
        h0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size).double()
        c0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size).double()
        out, _ = self.lstm(x, (h0, c0))
        out = self.fc(out[:, -1, :])
        return out

device = torch.device('cuda:0')
feature_num, n_hour, batch_size = 12, 6, 16
model = LSTM_model(input_size=feature_num, hidden_size=32, num_layers=2, num_classes=1).double().to(device)
data = torch.randn(batch_size, n_hour, feature_num, dtype=torch.double).to(device)
label = torch.rand(batch_size, 1, dtype=torch.double).to(device)
criterion = nn.MSELoss()
'''
CELL = '''
outputs = model(data)
loss = criterion(outputs, label)
'''
EXPECT_ERROR = ("Input and hidden tensors are not at the same device",
                "Expected all tensors to be on the same device")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        h0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size).double()\n        c0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size).double()",
    "        h0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size, device=x.device, dtype=torch.double)\n        c0 = torch.zeros(self.num_layers, x.size(0), self.hidden_size, device=x.device, dtype=torch.double)",
)
CLEAN = False
