"""torch-directml: prediction on a CPU `input_data` with the model on the DirectML device.

Source: https://github.com/microsoft/DirectML/issues/540
The user set `device = torch_directml.device(0)`, trained the regression model there, then ran
`input_data = torch.Tensor(data)` and `predictions = model(input_data).to(device)` under
`torch.no_grad()`, which failed with "unbox expects Dml at::Tensor as inputs" (DirectML's form of
the device mismatch). The maintainer's answer: input_data is not on the DirectML device; every
tensor must be on the same device. Moving the output afterwards does not help. Stand-in: a small
MLP regressor; cuda:0 stands in for `privateuseone:0`.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

device = torch.device("cuda:0")     # torch_directml.device(0) -> privateuseone:0

class Net(nn.Module):
    def __init__(self, n_in=12, hidden=64):
        super().__init__()
        self.fc1 = nn.Linear(n_in, hidden)
        self.fc2 = nn.Linear(hidden, hidden)
        self.out = nn.Linear(hidden, 1)

    def forward(self, x):
        return self.out(torch.relu(self.fc2(torch.relu(self.fc1(x)))))

model = Net().to(device)
model.eval()
data = np.random.rand(100, 12).astype(np.float32)
input_data = torch.Tensor(data)
'''
CELL = '''
with torch.no_grad():
    predictions = model(input_data).to(device)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["input_data"]
FIX = "namespace"
REFERENCE_FIX = '''
input_data = input_data.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
