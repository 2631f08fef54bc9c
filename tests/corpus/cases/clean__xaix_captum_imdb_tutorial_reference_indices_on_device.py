"""Captum IMDB tutorial on a GPU: input and reference token indices are both created with `device=device`.

Source: https://github.com/meta-pytorch/captum/blob/master/tutorials/IMDB_TorchText_Interpret.ipynb
`interpret_sentence` builds `input_indices = torch.tensor(indexed, device=device).unsqueeze(0)`, predicts with
`forward_with_sigmoid(input_indices)`, and makes the baseline with
`token_reference.generate_reference(seq_length, device=device).unsqueeze(0)` (`TokenReferenceBase` creates
`torch.tensor([reference_token_idx] * sequence_length, device=device)`). Look-alike: token tensors created from
Python lists inside a helper next to a GPU CNN; each names its device, so it runs.
Stand-ins: the tutorial's CNN (smaller), a toy vocabulary, `TokenReferenceBase`, and `interpret_sentence` up to the
prediction and reference (the Layer-IG attribution and `.item()` read-out are left out).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class CNN(nn.Module):
    def __init__(self, vocab_size=200, embedding_dim=16, n_filters=8, filter_sizes=(3, 4, 5), output_dim=1, dropout=0.5, pad_idx=1):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embedding_dim, padding_idx=pad_idx)
        self.convs = nn.ModuleList([nn.Conv2d(1, n_filters, (fs, embedding_dim)) for fs in filter_sizes])
        self.fc = nn.Linear(len(filter_sizes) * n_filters, output_dim)
        self.dropout = nn.Dropout(dropout)
    def forward(self, text):
        embedded = self.embedding(text).unsqueeze(1)
        conved = [F.relu(conv(embedded)).squeeze(3) for conv in self.convs]
        pooled = [c.amax(dim=2) for c in conved]
        return self.fc(self.dropout(torch.cat(pooled, dim=1)))

class TokenReferenceBase:
    def __init__(self, reference_token_idx=0):
        self.reference_token_idx = reference_token_idx
    def generate_reference(self, sequence_length, device):
        return torch.tensor([self.reference_token_idx] * sequence_length, device=device)

device = torch.device("cuda:0")
stoi = {w: i + 2 for i, w in enumerate("it was a fantastic performance ! best film ever".split())}
PAD_IND = 1
model = CNN(pad_idx=PAD_IND).to(device)
model.eval()
token_reference = TokenReferenceBase(reference_token_idx=PAD_IND)

def forward_with_sigmoid(input):
    return torch.sigmoid(model(input))

def interpret_sentence(model, sentence, min_len=7, label=0):
    text = sentence.lower().split()
    if len(text) < min_len:
        text += ["pad"] * (min_len - len(text))
    indexed = [stoi.get(t, PAD_IND) for t in text]
    model.zero_grad()
    input_indices = torch.tensor(indexed, device=device)
    input_indices = input_indices.unsqueeze(0)
    seq_length = min_len
    pred = forward_with_sigmoid(input_indices)
    reference_indices = token_reference.generate_reference(seq_length, device=device).unsqueeze(0)
    return pred, input_indices, reference_indices
'''
CELL = '''
pred, input_indices, reference_indices = interpret_sentence(model, "It was a fantastic performance !", label=1)
ref_pred = forward_with_sigmoid(reference_indices)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
