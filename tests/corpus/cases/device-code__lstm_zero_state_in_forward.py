"""A character LSTM creates its zero (h, c) state with torch.zeros inside forward; model on the GPU.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/3738
The user's LightningModule initialised hidden and cell with torch.zeros(...) and got "Input and
hidden tensors are not at the same device, found input tensor at cuda:0 and hidden tensor at
cpu": the trainer moved the module and the batch, but tensors made inside the step default to cpu.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
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

    def zero_state(self, batch_size):
        return torch.zeros(self.n_layers, batch_size, self.hidden_size)

    def forward(self, letters, state=None):
        if state is None:
            state = (self.zero_state(letters.shape[0]), self.zero_state(letters.shape[0]))
        out, state = self.lstm(self.embedding(letters), state)
        return self.out_fc(out), state

model = CharRNN().to("cuda:0")
letters = torch.randint(0, 30, (4, 10)).to("cuda:0")
'''
CELL = '''
logits, state = model(letters)
'''
EXPECT_ERROR = "Input and hidden tensors are not at the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "torch.zeros(self.n_layers, batch_size, self.hidden_size)",
    "torch.zeros(self.n_layers, batch_size, self.hidden_size, device=self.out_fc.weight.device)",
)
CLEAN = False
