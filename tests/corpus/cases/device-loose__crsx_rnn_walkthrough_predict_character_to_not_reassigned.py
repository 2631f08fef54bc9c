"""RNN-walkthrough (FloydHub beginner's guide to RNNs): `character.to(device)` is not assigned before `model(character)`.

Source: https://github.com/gabrielloye/RNN-walkthrough/issues/1
The reader ran the walkthrough's character-level RNN with a GPU attached and the prediction step
failed. The issue explains that `character.to(device)` returns a new tensor on the GPU and leaves
`character` on the CPU, so `out, hidden = model(character)` feeds a CPU input to the GPU RNN; the fix
is `character = character.to(device)` (the author corrected the notebook).
Stand-in: the notebook's `Model` (nn.RNN + Linear, hidden made in `init_hidden` on `device`) and
its one-hot helper; the `predict` body is written out as the user's cell.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import numpy as np
import torch
from torch import nn

device = torch.device("cuda:0")   # the notebook: torch.device("cuda") if is_cuda else "cpu"

text = ['hey how are you', 'good i am fine', 'have a nice day']
chars = set(''.join(text))
int2char = dict(enumerate(sorted(chars)))
char2int = {char: ind for ind, char in int2char.items()}
dict_size = len(char2int)

def one_hot_encode(sequence, dict_size, seq_len, batch_size):
    features = np.zeros((batch_size, seq_len, dict_size), dtype=np.float32)
    for i in range(batch_size):
        for u in range(seq_len):
            features[i, u, sequence[i][u]] = 1
    return features

class Model(nn.Module):
    def __init__(self, input_size, output_size, hidden_dim, n_layers):
        super(Model, self).__init__()
        self.hidden_dim = hidden_dim
        self.n_layers = n_layers
        self.rnn = nn.RNN(input_size, hidden_dim, n_layers, batch_first=True)
        self.fc = nn.Linear(hidden_dim, output_size)

    def forward(self, x):
        batch_size = x.size(0)
        hidden = self.init_hidden(batch_size)
        out, hidden = self.rnn(x, hidden)
        out = out.contiguous().view(-1, self.hidden_dim)
        out = self.fc(out)
        return out, hidden

    def init_hidden(self, batch_size):
        hidden = torch.zeros(self.n_layers, batch_size, self.hidden_dim).to(device)
        return hidden

model = Model(input_size=dict_size, output_size=dict_size, hidden_dim=12, n_layers=1)
model.to(device)
model.eval()

character = np.array([[char2int[c] for c in 'good']])
character = one_hot_encode(character, dict_size, character.shape[1], 1)
character = torch.from_numpy(character)
'''
CELL = '''
character.to(device)
with torch.no_grad():
    out, hidden = model(character)
prob = nn.functional.softmax(out[-1:], dim=-1)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "Input and hidden tensors are not at the same device", "Input and parameter tensors are not at the same device")
CULPRITS = ["character"]
FIX = "namespace"
REFERENCE_FIX = '''
character = character.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
