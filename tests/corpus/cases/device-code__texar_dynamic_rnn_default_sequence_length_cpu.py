"""texar-pytorch RNN encoder called without `sequence_length`: the default lengths tensor is made on the CPU.

Source: https://github.com/asyml/texar-pytorch/pull/252
"Fix bug in rnn": "When using rnn without sequence_length, the new tensor created for
sequence_length don't have same device as inputs. It will cause the `mask_sequences` arguments
have different device." `dynamic_rnn` fills in `torch.tensor([time_steps] * batch_size)` with no
device and masks the GPU outputs with it. Stand-in: `dynamic_rnn`, `mask_sequences` and an encoder
around a small Elman cell (Linear layers) in place of texar's cell wrappers.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def sequence_mask(lengths, max_len):
    return torch.arange(max_len, device=lengths.device).unsqueeze(0) < lengths.unsqueeze(1)

def mask_sequences(sequence, sequence_length):
    mask = sequence_mask(sequence_length, sequence.size(1)).to(sequence.dtype)
    return sequence * mask.unsqueeze(-1)

class ElmanCell(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.ih = nn.Linear(input_size, hidden_size)
        self.hh = nn.Linear(hidden_size, hidden_size)

    def zero_state(self, batch_size, like):
        return like.new_zeros(batch_size, self.hidden_size)

    def forward(self, x, h):
        return torch.tanh(self.ih(x) + self.hh(h))

def dynamic_rnn(cell, inputs, sequence_length=None, initial_state=None):
    batch_size, time_steps = inputs.size(0), inputs.size(1)
    if sequence_length is None:
        sequence_length = torch.tensor([time_steps] * batch_size, dtype=torch.int32)
    state = initial_state if initial_state is not None else cell.zero_state(batch_size, inputs)
    outputs = []
    for t in range(time_steps):
        state = cell(inputs.select(1, t), state)
        outputs.append(state)
    outputs = torch.stack(outputs, dim=1)
    outputs = mask_sequences(outputs, sequence_length)
    return outputs, state

class UnidirectionalRNNEncoder(nn.Module):
    def __init__(self, input_size, hidden_size=32):
        super().__init__()
        self._cell = ElmanCell(input_size, hidden_size)

    def forward(self, inputs, sequence_length=None):
        return dynamic_rnn(self._cell, inputs, sequence_length=sequence_length)

device = torch.device("cuda:0")
embedder = nn.Embedding(100, 16).to(device)
encoder = UnidirectionalRNNEncoder(input_size=16).to(device)
text_ids = torch.randint(0, 100, (4, 7)).to(device)
'''
CELL = '''
outputs, final_state = encoder(embedder(text_ids))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["encoder"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("sequence_length = torch.tensor([time_steps] * batch_size, dtype=torch.int32)",
                  "sequence_length = torch.tensor([time_steps] * batch_size, dtype=torch.int32, device=inputs.device)")
CLEAN = False
