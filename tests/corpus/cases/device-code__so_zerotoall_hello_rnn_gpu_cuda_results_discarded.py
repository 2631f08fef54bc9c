"""PyTorchZeroToAll "hello RNN" GPU lab: `inputs.cuda()` and `h_0.cuda()` results are thrown away.

Source: https://github.com/hunkim/PyTorchZeroToAll/pull/6
"Fixed the cuda errors in 11_3_hello_rnn_gpu.py": the tutorial script moved the model with
`rnn.cuda()` but wrote `inputs.cuda()` / `labels.cuda()` at module level and `h_0.cuda()` inside
`RNN.forward` as bare statements. `Tensor.cuda()` returns a copy, so the one-hot inputs, the labels
and the zero initial hidden state all stay on the CPU and the first `rnn(inputs)` fails; the fix
assigns the results (`inputs = inputs.cuda()`, `h_0 = h_0.cuda()`, ...). Stand-in: `Variable` dropped,
the GPU is the meta device (`.cuda()` written as `.to(device)` under a `use_cuda` flag), the class is
defined before the data block, and the per-epoch printing of the predicted string is left out.
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

torch.manual_seed(777)
device = torch.device("meta")      # what .cuda() targets here
use_cuda = True                    # torch.cuda.is_available()

idx2char = ['h', 'i', 'e', 'l', 'o']
num_classes = 5
input_size = 5
hidden_size = 5
batch_size = 1
sequence_length = 6
num_layers = 1

class RNN(nn.Module):

    def __init__(self, num_classes, input_size, hidden_size, num_layers):
        super(RNN, self).__init__()
        self.num_classes = num_classes
        self.num_layers = num_layers
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.sequence_length = sequence_length
        self.rnn = nn.RNN(input_size=5, hidden_size=5, batch_first=True)

    def forward(self, x):
        h_0 = torch.zeros(x.size(0), self.num_layers, self.hidden_size)
        if use_cuda:
            h_0.to(device)

        x.view(x.size(0), self.sequence_length, self.input_size)
        out, _ = self.rnn(x, h_0)
        return out.view(-1, num_classes)


x_data = [[0, 1, 0, 2, 3, 3]]   # hihell
x_one_hot = [[[1, 0, 0, 0, 0],
              [0, 1, 0, 0, 0],
              [1, 0, 0, 0, 0],
              [0, 0, 1, 0, 0],
              [0, 0, 0, 1, 0],
              [0, 0, 0, 1, 0]]]
y_data = [1, 0, 2, 3, 3, 4]    # ihello

inputs = torch.Tensor(x_one_hot)
labels = torch.LongTensor(y_data)

if use_cuda:
    inputs.to(device)
    labels.to(device)

rnn = RNN(num_classes, input_size, hidden_size, num_layers)
if use_cuda:
    rnn.to(device)

criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(rnn.parameters(), lr=0.1)
'''
CELL = '''
for epoch in range(3):
    outputs = rnn(inputs)
    optimizer.zero_grad()
    loss = criterion(outputs, labels)
    loss.backward()
    optimizer.step()
    _, idx = outputs.max(1)
'''
EXPECT_ERROR = ("Input and parameter tensors are not at the same device",
                "Expected all tensors to be on the same device")
CULPRITS = ["inputs", "rnn"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """            h_0.to(device)

        x.view(x.size(0), self.sequence_length, self.input_size)
        out, _ = self.rnn(x, h_0)
        return out.view(-1, num_classes)


x_data = [[0, 1, 0, 2, 3, 3]]   # hihell
x_one_hot = [[[1, 0, 0, 0, 0],
              [0, 1, 0, 0, 0],
              [1, 0, 0, 0, 0],
              [0, 0, 1, 0, 0],
              [0, 0, 0, 1, 0],
              [0, 0, 0, 1, 0]]]
y_data = [1, 0, 2, 3, 3, 4]    # ihello

inputs = torch.Tensor(x_one_hot)
labels = torch.LongTensor(y_data)

if use_cuda:
    inputs.to(device)
    labels.to(device)""",
    """            h_0 = h_0.to(device)

        x.view(x.size(0), self.sequence_length, self.input_size)
        out, _ = self.rnn(x, h_0)
        return out.view(-1, num_classes)


x_data = [[0, 1, 0, 2, 3, 3]]   # hihell
x_one_hot = [[[1, 0, 0, 0, 0],
              [0, 1, 0, 0, 0],
              [1, 0, 0, 0, 0],
              [0, 0, 1, 0, 0],
              [0, 0, 0, 1, 0],
              [0, 0, 0, 1, 0]]]
y_data = [1, 0, 2, 3, 3, 4]    # ihello

inputs = torch.Tensor(x_one_hot)
labels = torch.LongTensor(y_data)

if use_cuda:
    inputs = inputs.to(device)
    labels = labels.to(device)""",
)
CLEAN = False
