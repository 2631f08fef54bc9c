"""`pack_padded_sequence` with the lengths on the CPU while model and text are on the GPU.

Source: https://github.com/bentrevett/pytorch-sentiment-analysis/issues/93
Since PyTorch 1.7 `lengths` must be a CPU int64 tensor even when the input is on the GPU; the
maintainer's fix passes `text_lengths.cpu()`. A CPU `text_lengths` next to a GPU model is
required, not a stray. Simulated with meta as the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class RNN(nn.Module):
    def __init__(self, vocab_size=50, embedding_dim=16, hidden_dim=32, output_dim=1):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=0)
        self.rnn = nn.LSTM(embedding_dim, hidden_dim)
        self.fc = nn.Linear(hidden_dim, output_dim)

    def forward(self, text, text_lengths):
        embedded = self.embedding(text)
        packed_embedded = nn.utils.rnn.pack_padded_sequence(embedded, text_lengths.cpu())
        packed_output, (hidden, cell) = self.rnn(packed_embedded)
        return self.fc(hidden.squeeze(0))

model = RNN().to("meta")
text = torch.randint(1, 50, (7, 3)).to("meta")
text_lengths = torch.tensor([7, 5, 2])
'''
CELL = '''
predictions = model(text, text_lengths).squeeze(1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
