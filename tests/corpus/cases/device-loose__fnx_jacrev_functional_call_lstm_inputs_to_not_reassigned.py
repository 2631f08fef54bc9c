"""`jacrev(functional_call, argnums=1)` of an LSTM model fails on cuda: `inputs.to(device)` was never assigned back.

Source: https://github.com/pytorch/pytorch/issues/110422
"jacrev Issue when Using Cuda": the user computed parameter Jacobians of an LSTM regressor with
`jacobians = jacrev(functional_call, argnums=1)(model, params, (inputs,))`; it worked on the CPU and
failed with `device = "cuda"`. The setup line was `model.to(device); inputs.to(device)`: the module
moves in place, but `Tensor.to` returns a new tensor, so `inputs` stayed on the CPU while the LSTM
weights were on the GPU. Fix: `inputs = inputs.to(device)`. SIM meta: "meta" plays cuda.
"""

SIM = "meta"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn
from torch.func import jacrev, functional_call

device = "meta"              # "cuda" in the report

class LSTMModel(nn.Module):
    def __init__(self, input_size, lstm_units, dense_units):
        super(LSTMModel, self).__init__()
        self.lstm = nn.LSTM(input_size, lstm_units, batch_first=True)
        self.fc1 = nn.Linear(lstm_units, dense_units)
        self.fc2 = nn.Linear(dense_units, 1)

    def forward(self, x):
        lstm_out, _ = self.lstm(x)
        lstm_out = torch.tanh(lstm_out)
        fc1_out = torch.tanh(self.fc1(lstm_out))
        output = self.fc2(fc1_out)
        return output

input_size = 2
lstm_units = 32
dense_units = 16

model = LSTMModel(input_size, lstm_units, dense_units)
inputs = torch.randn(5, 100, 2)
model.to(device); inputs.to(device)
params = dict(model.named_parameters())
'''
CELL = '''
jacobians = jacrev(functional_call, argnums=1)(model, params, (inputs,))
print(jacobians["fc2.weight"].shape)
'''
EXPECT_ERROR = ("not at the same device", "is not on the expected device",
                "Expected all tensors to be on the same device")
CULPRITS = ["inputs"]
FIX = "namespace"
REFERENCE_FIX = '''
inputs = inputs.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
