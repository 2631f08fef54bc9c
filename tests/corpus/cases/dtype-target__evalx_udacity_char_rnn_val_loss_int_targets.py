"""Udacity char-RNN notebook: the int32 targets from the numpy batcher break CrossEntropyLoss in training and validation.

Source: https://github.com/udacity/deep-learning-v2-pytorch/issues/73
In Character_Level_RNN's `train()`, `x, y = get_batches(...)` come from an int32 numpy encoding;
`targets = torch.from_numpy(y)` is an IntTensor, and both `loss = criterion(output, targets.view(batch_size*seq_length))`
and the validation `val_loss = criterion(output, targets.view(...))` fail with
"Expected object of scalar type Long but got scalar type Int for argument #2 'target'". The fix from the
thread: `targets.view(batch_size*seq_length).long()`.
Stand-in: the notebook's CharRNN (LSTM + fc), one-hot encoder and the validation pass.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
from torch import nn

def one_hot_encode(arr, n_labels):
    one_hot = np.zeros((arr.size, n_labels), dtype=np.float32)
    one_hot[np.arange(one_hot.shape[0]), arr.flatten()] = 1.
    return one_hot.reshape((*arr.shape, n_labels))

class CharRNN(nn.Module):
    def __init__(self, n_chars, n_hidden=32, n_layers=2):
        super().__init__()
        self.n_layers, self.n_hidden = n_layers, n_hidden
        self.lstm = nn.LSTM(n_chars, n_hidden, n_layers, batch_first=True)
        self.fc = nn.Linear(n_hidden, n_chars)

    def forward(self, x, hidden):
        r_output, hidden = self.lstm(x, hidden)
        out = r_output.contiguous().view(-1, self.n_hidden)
        return self.fc(out), hidden

    def init_hidden(self, batch_size):
        return (torch.zeros(self.n_layers, batch_size, self.n_hidden),
                torch.zeros(self.n_layers, batch_size, self.n_hidden))

n_chars, batch_size, seq_length = 20, 4, 10
encoded = np.random.randint(0, n_chars, batch_size * seq_length + 1).astype(np.int32)
x = encoded[:-1].reshape(batch_size, seq_length)
y = encoded[1:].reshape(batch_size, seq_length)
net = CharRNN(n_chars)
criterion = nn.CrossEntropyLoss()
val_h = net.init_hidden(batch_size)
inputs = torch.from_numpy(one_hot_encode(x, n_chars))
targets = torch.from_numpy(y)
net.eval()
'''
CELL = '''
with torch.no_grad():
    output, val_h = net(inputs, val_h)
    val_loss = criterion(output, targets.view(batch_size * seq_length))
'''
EXPECT_ERROR = ("expected target dtype to be Long", "expected scalar type Long", "not implemented for 'Int'")
CULPRITS = ["targets"]
FIX = "namespace"
REFERENCE_FIX = '''
targets = targets.long()
'''
REFERENCE_EDIT = None
CLEAN = False
