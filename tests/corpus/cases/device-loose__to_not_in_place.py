"""`masks.to(self.device)` without assigning the result: the masks stay on the CPU.

Source: https://github.com/sacdallago/biotrainer/blob/1cb99560f3cab0f7fb0b9ffc227db94c41645307/biotrainer/solvers/Solver.py
`_training_iteration` writes `x = x.to(self.device)`, `y = y.to(self.device)` and then
`masks.to(self.device)` (result dropped), so the residue masks reach the metric computation on
the CPU next to GPU predictions.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

device = torch.device("cuda:0")
network = nn.Sequential(nn.Linear(128, 64), nn.ReLU(), nn.Linear(64, 8)).to(device)
x = torch.randn(4, 50, 128)
y = torch.randint(0, 8, (4, 50))
masks = torch.ones(4, 50, dtype=torch.bool)

x = x.to(device)
y = y.to(device)
masks.to(device)
'''
CELL = '''
prediction = network(x).argmax(dim=-1)
correct = ((prediction == y) & masks).sum()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["masks"]
FIX = "namespace"
REFERENCE_FIX = '''
masks = masks.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
