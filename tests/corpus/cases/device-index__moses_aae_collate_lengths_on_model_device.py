"""MOSES AAE training: the collate function builds the sequence lengths on the model's GPU.

Source: https://github.com/molecularsets/moses/issues/97
Training the AAE model on cuda:1 failed in `encoder_forward` with "'lengths' argument should be a 1D
CPU int64 tensor, but got 1D cuda:1 Long tensor": the trainer's collate function creates
`lengths = torch.tensor([len(t) for t in tensors], dtype=torch.long, device=device)` next to the
SMILES tensors, and `pack_padded_sequence` (PyTorch >= 1.7) only takes CPU lengths. The lengths
have to stay on the CPU. Simulated with meta as the accelerator; the vocabulary and the encoder are
small stand-ins.
"""

SIM = "meta"
FAMILY = "device-index"
SETUP = '''
import torch
from torch import nn
from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence

class Vocab:
    def __init__(self, chars):
        self.c2i = {c: i + 4 for i, c in enumerate(sorted(set(chars)))}
        self.bos, self.eos, self.pad = 1, 2, 0

class AAE(nn.Module):
    def __init__(self, vocabulary, emb=16, hidden=32, latent=8):
        super().__init__()
        self.vocabulary = vocabulary
        self.embedding_layer = nn.Embedding(len(vocabulary.c2i) + 4, emb, padding_idx=vocabulary.pad)
        self.lstm_layer = nn.LSTM(emb, hidden, batch_first=True)
        self.linear_layer = nn.Linear(hidden, latent)

    @property
    def device(self):
        return next(self.parameters()).device

    def string2tensor(self, string, device="model"):
        ids = [self.vocabulary.bos] + [self.vocabulary.c2i[c] for c in string] + [self.vocabulary.eos]
        return torch.tensor(ids, dtype=torch.long, device=self.device if device == "model" else device)

    def encoder_forward(self, x, lengths):
        x = self.embedding_layer(x)
        x = pack_padded_sequence(x, lengths, batch_first=True)
        _, (_, x) = self.lstm_layer(x)
        return self.linear_layer(x[-1])

def get_collate_fn(model):
    device = model.device
    def collate(data):
        data.sort(key=lambda x: len(x), reverse=True)
        tensors = [model.string2tensor(string, device=device) for string in data]
        lengths = torch.tensor([len(t) for t in tensors], dtype=torch.long, device=device)
        encoder_inputs = pad_sequence(tensors, batch_first=True, padding_value=model.vocabulary.pad)
        encoder_input_lengths = lengths - 2
        return encoder_inputs[:, 1:-1], encoder_input_lengths
    return collate

smiles = ["CCO", "c1ccccc1O", "CC(=O)Nc1ccc(O)cc1", "CCN(CC)CC"]
vocabulary = Vocab("".join(smiles))
model = AAE(vocabulary).to("meta")            # device="cuda:1" in the report
collate = get_collate_fn(model)
'''
CELL = '''
encoder_inputs, encoder_input_lengths = collate(list(smiles))
latent_codes = model.encoder_forward(encoder_inputs, encoder_input_lengths)
'''
EXPECT_ERROR = "'lengths' argument should be a 1D CPU int64 tensor"
CULPRITS = ["encoder_input_lengths"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("lengths = torch.tensor([len(t) for t in tensors], dtype=torch.long, device=device)",
                  "lengths = torch.tensor([len(t) for t in tensors], dtype=torch.long)")
CLEAN = False
