"""An RNN fed a float64 tensor made with torch.tensor() from a float64 numpy array.

Source: https://github.com/pytorch/pytorch/issues/41363
`torch.tensor(x)` on a float64 ndarray keeps float64, and the forward through nn.RNN failed
because its weights are float32 (today: "RNN input dtype (torch.float64) does not match weight
dtype (torch.float32)"). The input must be float32 or the model float64.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class SimpleRNN(nn.Module):
    def __init__(self, input_size=3, hidden_size=8, num_layers=1, output_size=1):
        super().__init__()
        self.rnn = nn.RNN(input_size, hidden_size, num_layers, batch_first=True)
        self.fc = nn.Linear(hidden_size, output_size)

    def forward(self, x, hs=None):
        out, hs = self.rnn(x, hs)
        return self.fc(out), hs

model = SimpleRNN()
x_np = np.random.rand(5, 20, 3)
x = torch.tensor(x_np)
'''
CELL = '''
pred, hs = model(x)
'''
EXPECT_ERROR = "RNN input dtype (torch.float64) does not match weight dtype (torch.float32)"
CULPRITS = ["x"]
FIX = "namespace"
REFERENCE_FIX = '''
x = x.float()
'''
REFERENCE_EDIT = None
CLEAN = False
