"""Char-RNN `sample()` from Machine Learning with PyTorch and Scikit-Learn: the encoded prompt stays on the CPU.

Source: https://github.com/rasbt/machine-learning-book/pull/233
"PyTorch now throws an error for this code": the chapter 15 `sample()` moves `hidden` and `cell`
from `model.init_hidden(1)` to `device`, but builds `encoded_input = torch.tensor([char2int[s] ...])`
on the CPU and feeds `encoded_input[:, c].view(1)` / `last_char.view(1)` to the model trained on
the GPU: "index is on cpu, different from other tensors on cuda:0 (... index_select)". The PR
moves the prompt to the model's device. Stand-in: the book's RNN on a tiny alphabet; the sampled
ids are kept as tensors instead of being looked up in `char_array`, and `encoded_input[:, c]` is written
`encoded_input.select(1, c)` and the next character is the argmax instead of a `Categorical` draw (no sampling on the simulated GPU).
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

device = torch.device("cuda:0")
char_set = sorted(set("the island of mystery"))
char2int = {ch: i for i, ch in enumerate(char_set)}
char_array = np.array(char_set)

class RNN(nn.Module):
    def __init__(self, vocab_size, embed_dim, rnn_hidden_size):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim)
        self.rnn_hidden_size = rnn_hidden_size
        self.rnn = nn.LSTM(embed_dim, rnn_hidden_size, batch_first=True)
        self.fc = nn.Linear(rnn_hidden_size, vocab_size)

    def forward(self, x, hidden, cell):
        out = self.embedding(x).unsqueeze(1)
        out, (hidden, cell) = self.rnn(out, (hidden, cell))
        out = self.fc(out).reshape(out.size(0), -1)
        return out, hidden, cell

    def init_hidden(self, batch_size):
        hidden = torch.zeros(1, batch_size, self.rnn_hidden_size)
        cell = torch.zeros(1, batch_size, self.rnn_hidden_size)
        return hidden, cell

model = RNN(len(char_set), 16, 32).to(device)

def sample(model, starting_str, len_generated_text=20, scale_factor=1.0):
    encoded_input = torch.tensor([char2int[s] for s in starting_str])
    encoded_input = torch.reshape(encoded_input, (1, -1))
    generated = []
    model.eval()
    hidden, cell = model.init_hidden(1)
    hidden = hidden.to(device)
    cell = cell.to(device)
    for c in range(len(starting_str) - 1):
        _, hidden, cell = model(encoded_input.select(1, c).view(1), hidden, cell)
    last_char = encoded_input.select(1, -1)
    for i in range(len_generated_text):
        logits, hidden, cell = model(last_char.view(1), hidden, cell)
        logits = torch.squeeze(logits, 0)
        scaled_logits = logits * scale_factor
        last_char = scaled_logits.argmax(-1, keepdim=True)   # the book: Categorical(logits=...).sample()
        generated.append(last_char)        # the book: generated_str += str(char_array[last_char])
    return generated
'''
CELL = '''
out = sample(model, starting_str="the island")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["sample"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "encoded_input = torch.reshape(encoded_input, (1, -1))",
    "encoded_input = torch.reshape(encoded_input, (1, -1)).to(device)",
)
CLEAN = False
