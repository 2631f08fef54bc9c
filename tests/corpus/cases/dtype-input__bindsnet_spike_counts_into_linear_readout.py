"""BindsNET reservoir example: spike counts summed from boolean spike trains are int64, fed to a Linear readout.

Source: https://github.com/BindsNET/bindsnet/issues/201
Running `minimal_reservoir.py`, training the logistic-regression readout on the recorded reservoir
activity failed at `output = model(s)` -> `F.linear` with "Expected object of scalar type Long but got
scalar type Float for argument #2 'mat2'": the monitor's spikes are boolean, and summing them over
time gives int64 counts, which the float32 `nn.Linear` refuses. Stand-in: the recorded spikes as a
boolean tensor, the readout as in the example. Run on the CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class NN(nn.Module):
    def __init__(self, input_size, num_classes):
        super().__init__()
        self.linear = nn.Linear(input_size, num_classes)

    def forward(self, x):
        return self.linear(x)

n_neurons, time = 100, 250
spike_record = torch.rand(16, time, n_neurons) < 0.05        # monitor.get("s"): bool spikes
labels = torch.randint(0, 10, (16,))
model = NN(n_neurons, 10)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=1e-4, momentum=0.9)
s = spike_record.sum(1)                                        # spike counts per neuron: int64
label = labels
'''
CELL = '''
optimizer.zero_grad()
output = model(s)
loss = criterion(output, label)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = "mat1 and mat2 must have the same dtype"
CULPRITS = ["s"]
FIX = "namespace"
REFERENCE_FIX = '''
s = s.float()
'''
REFERENCE_EDIT = None
CLEAN = False
