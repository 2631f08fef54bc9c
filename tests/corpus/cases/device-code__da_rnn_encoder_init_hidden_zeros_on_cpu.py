"""DA-RNN time-series encoder: `init_hidden` makes the LSTM state with `torch.zeros` on the CPU.

Source: https://github.com/Seanny123/da-rnn/issues/22
Training the dual-stage attention RNN on the GPU failed with "All input tensors must be on the same
device. Received cpu and cuda:0": `init_hidden(x, hidden_size)` returns
`Variable(torch.zeros(1, x.size(0), hidden_size))` without a device, and the encoder concatenates
that state with the (cuda) driving series in its input-attention step. The zeros must be created on
the input's device. Stand-in: the encoder's input attention from modules.py, shortened.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
from torch.autograd import Variable
import torch.nn.functional as tf

def init_hidden(x, hidden_size: int):
    """Train the initial value of the hidden state: https://r2rt.com/non-zero-initial-states-for-recurrent-neural-networks.html"""
    return Variable(torch.zeros(1, x.size(0), hidden_size))

class Encoder(nn.Module):
    def __init__(self, input_size: int, hidden_size: int, T: int):
        super().__init__()
        self.input_size, self.hidden_size, self.T = input_size, hidden_size, T
        self.lstm_layer = nn.LSTM(input_size=input_size, hidden_size=hidden_size, num_layers=1)
        self.attn_linear = nn.Linear(in_features=2 * hidden_size + T - 1, out_features=1)

    def forward(self, input_data):
        # input_data: (batch_size, T - 1, input_size)
        hidden = init_hidden(input_data, self.hidden_size)
        cell = init_hidden(input_data, self.hidden_size)
        weighted = []
        for t in range(self.T - 1):
            x = torch.cat((hidden.repeat(self.input_size, 1, 1).permute(1, 0, 2),
                           cell.repeat(self.input_size, 1, 1).permute(1, 0, 2),
                           input_data.permute(0, 2, 1)), dim=2)
            x = self.attn_linear(x.view(-1, self.hidden_size * 2 + self.T - 1))
            attn_weights = tf.softmax(x.view(-1, self.input_size), dim=1)
            weighted_input = torch.mul(attn_weights, input_data.select(1, t))   # input_data[:, t, :]
            _, (hidden, cell) = self.lstm_layer(weighted_input.unsqueeze(0), (hidden, cell))
            weighted.append(weighted_input)
        return torch.stack(weighted, 1), hidden

device = torch.device("cuda:0")
T = 10
encoder = Encoder(input_size=81, hidden_size=64, T=T).to(device)
X = torch.randn(128, T - 1, 81, device=device)      # NASDAQ-100 driving series
'''
CELL = '''
input_weighted, input_encoded = encoder(X)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "All input tensors must be on the same device")
CULPRITS = ["hidden", "cell"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    return Variable(torch.zeros(1, x.size(0), hidden_size))",
                  "    return Variable(torch.zeros(1, x.size(0), hidden_size, device=x.device))")
CLEAN = False
