"""gSCAN seq2seq encoder: the command lengths are made on the GPU and handed to pack_padded_sequence.

Source: https://github.com/LauraRuis/multimodal_seq2seq_gSCAN/pull/2
Reproducing the paper's first experiment with a newer PyTorch, `python3.7 -m seq2seq --mode=train
...` failed in `pack_padded_sequence` with "'lengths' argument should be a 1D CPU int64 tensor,
but got 1D cuda:0 Long tensor": the encoder turns `input_lengths` into a tensor on `device`, sorts
it and packs with the sorted lengths. The PR keeps the lengths on the CPU for the packing call (here: made on the CPU, the sort
permutation moved to `device` for the index_select).
Stand-in: the encoder's forward (embedding, sort, pack, LSTM, unpack) inside a small model; the
"GPU" is the meta device.
"""

SIM = "meta"
FAMILY = "device-index"
SETUP = '''
import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

device = torch.device("meta")      # torch.device("cuda" if use_cuda else "cpu")

class EncoderRNN(nn.Module):
    def __init__(self, input_size, embedding_dim, rnn_input_size, hidden_size, num_layers,
                 dropout_probability, bidirectional, padding_idx):
        super(EncoderRNN, self).__init__()
        self.embedding = nn.Embedding(input_size, embedding_dim, padding_idx=padding_idx)
        self.dropout = nn.Dropout(dropout_probability)
        self.lstm = nn.LSTM(input_size=rnn_input_size, hidden_size=hidden_size,
                            num_layers=num_layers, bidirectional=bidirectional, batch_first=True)

    def forward(self, input_batch, input_lengths):
        input_embeddings = self.embedding(input_batch)
        input_embeddings = self.dropout(input_embeddings)
        input_lengths = torch.tensor(input_lengths, dtype=torch.long, device=device)
        sorted_lengths, perm_idx = torch.sort(input_lengths, descending=True)
        input_embeddings = input_embeddings.index_select(dim=0, index=perm_idx)
        packed_input = pack_padded_sequence(input_embeddings, sorted_lengths, batch_first=True)
        packed_output, (hidden, cell) = self.lstm(packed_input)
        output, _ = pad_packed_sequence(packed_output, batch_first=True)
        return output, hidden

class Model(nn.Module):
    def __init__(self):
        super(Model, self).__init__()
        self.encoder = EncoderRNN(input_size=20, embedding_dim=25, rnn_input_size=25,
                                  hidden_size=32, num_layers=1, dropout_probability=0.3,
                                  bidirectional=True, padding_idx=0)
    def encode_input(self, commands_input, commands_lengths):
        return self.encoder(commands_input, commands_lengths)

model = Model().to(device)
commands_input = torch.randint(1, 20, (4, 9), device=device)
commands_lengths = [9, 6, 7, 3]
'''
CELL = '''
encoded_commands, hidden = model.encode_input(commands_input, commands_lengths)
'''
EXPECT_ERROR = "'lengths' argument should be a 1D CPU int64 tensor"
CULPRITS = ["model.encoder"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        input_lengths = torch.tensor(input_lengths, dtype=torch.long, device=device)\n        sorted_lengths, perm_idx = torch.sort(input_lengths, descending=True)\n        input_embeddings = input_embeddings.index_select(dim=0, index=perm_idx)",
    "        input_lengths = torch.tensor(input_lengths, dtype=torch.long)\n        sorted_lengths, perm_idx = torch.sort(input_lengths, descending=True)\n        input_embeddings = input_embeddings.index_select(dim=0, index=perm_idx.to(device))",
)
CLEAN = False
