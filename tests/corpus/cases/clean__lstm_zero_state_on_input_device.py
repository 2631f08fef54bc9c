"""Look-alike: a tensor created inside forward, but on the input's device (the correct pattern).

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/3738
The fix for "Input and hidden tensors are not at the same device": build the zero state with
`device=` taken from the input. A code scanner must not flag every torch.zeros in forward; this
one is right.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class CharRNN(nn.Module):
    def __init__(self, n_letters=30, embedding_size=8, hidden_size=16, n_layers=2):
        super().__init__()
        self.n_layers = n_layers
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(n_letters, embedding_size)
        self.lstm = nn.LSTM(embedding_size, hidden_size, n_layers, batch_first=True)
        self.out_fc = nn.Linear(hidden_size, n_letters)

    def forward(self, letters):
        shape = (self.n_layers, letters.shape[0], self.hidden_size)
        state = (torch.zeros(shape, device=letters.device), torch.zeros(shape, device=letters.device))
        out, state = self.lstm(self.embedding(letters), state)
        return self.out_fc(out), state

model = CharRNN().to("cuda:0")
letters = torch.randint(0, 30, (4, 10)).to("cuda:0")
'''
CELL = '''
logits, state = model(letters)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
