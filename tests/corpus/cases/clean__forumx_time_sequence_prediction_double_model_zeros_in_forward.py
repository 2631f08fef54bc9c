"""Look-alike: pytorch/examples time_sequence_prediction: float64 data, `seq.double()`, hidden states made in `forward` with `dtype=torch.double`.

Source: https://github.com/pytorch/examples/blob/main/time_sequence_prediction/train.py
The example trains two `nn.LSTMCell`s on sine waves generated with numpy as float64
(`generate_sine_wave.py`, `.astype('float64')`), feeds `torch.from_numpy(...)` straight in, and
casts the model with `seq.double()` instead of casting the data; `forward` builds
`h_t = torch.zeros(input.size(0), 51, dtype=torch.double)` without a device (CPU-only example).
Everything is float64 on purpose, so the cell runs. Stand-in: smaller data (N=10, L=100) and one
LBFGS step plus a prediction with `future`.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

class Sequence(nn.Module):
    def __init__(self):
        super(Sequence, self).__init__()
        self.lstm1 = nn.LSTMCell(1, 51)
        self.lstm2 = nn.LSTMCell(51, 51)
        self.linear = nn.Linear(51, 1)

    def forward(self, input, future=0):
        outputs = []
        h_t = torch.zeros(input.size(0), 51, dtype=torch.double)
        c_t = torch.zeros(input.size(0), 51, dtype=torch.double)
        h_t2 = torch.zeros(input.size(0), 51, dtype=torch.double)
        c_t2 = torch.zeros(input.size(0), 51, dtype=torch.double)

        for input_t in input.split(1, dim=1):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        for i in range(future):
            h_t, c_t = self.lstm1(output, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        outputs = torch.cat(outputs, dim=1)
        return outputs

np.random.seed(2)
T, L, N = 20, 100, 10
x = np.empty((N, L), 'int64')
x[:] = np.array(range(L)) + np.random.randint(-4 * T, 4 * T, N).reshape(N, 1)
data = np.sin(x / 1.0 / T).astype('float64')

np.random.seed(0)
torch.manual_seed(0)
input = torch.from_numpy(data[3:, :-1])
target = torch.from_numpy(data[3:, 1:])
test_input = torch.from_numpy(data[:3, :-1])
test_target = torch.from_numpy(data[:3, 1:])
seq = Sequence()
seq.double()
criterion = nn.MSELoss()
optimizer = optim.LBFGS(seq.parameters(), lr=0.8, max_iter=2)
'''
CELL = '''
def closure():
    optimizer.zero_grad()
    out = seq(input)
    loss = criterion(out, target)
    loss.backward()
    return loss
optimizer.step(closure)
with torch.no_grad():
    future = 10
    pred = seq(test_input, future=future)
    loss = criterion(pred[:, :-future], test_target)
print(loss.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
