"""Look-alike: bentrevett's Seq2Seq allocates its `outputs` buffer inside `forward` and moves it with a stored `self.device`, then teacher-forces from `trg[t]`.

Source: https://github.com/bentrevett/pytorch-seq2seq/blob/master/1%20-%20Sequence%20to%20Sequence%20Learning%20with%20Neural%20Networks.ipynb
`Seq2Seq.__init__` keeps the `device` it is given; `forward` makes
`outputs = torch.zeros(trg_len, batch_size, trg_vocab_size).to(self.device)`, feeds the LSTM
encoder's `(hidden, cell)` to the decoder, and at each step picks `trg[t]` or `output.argmax(1)`
with `random.random() < teacher_forcing_ratio`. The model was built with the same `device` and
moved there (`Seq2Seq(enc, dec, device).to(device)`), and the batch comes from an iterator on that
device, so the stored device, the buffer and the weights agree. Reduced: tiny vocabularies and
dimensions; the GPU is meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import random
import torch
import torch.nn as nn

device = torch.device("meta")        # torch.device('cuda' if torch.cuda.is_available() else 'cpu')

class Encoder(nn.Module):
    def __init__(self, input_dim, emb_dim, hid_dim, n_layers, dropout):
        super().__init__()
        self.hid_dim = hid_dim
        self.n_layers = n_layers
        self.embedding = nn.Embedding(input_dim, emb_dim)
        self.rnn = nn.LSTM(emb_dim, hid_dim, n_layers, dropout=dropout)
        self.dropout = nn.Dropout(dropout)

    def forward(self, src):
        embedded = self.dropout(self.embedding(src))
        outputs, (hidden, cell) = self.rnn(embedded)
        return hidden, cell

class Decoder(nn.Module):
    def __init__(self, output_dim, emb_dim, hid_dim, n_layers, dropout):
        super().__init__()
        self.output_dim = output_dim
        self.hid_dim = hid_dim
        self.n_layers = n_layers
        self.embedding = nn.Embedding(output_dim, emb_dim)
        self.rnn = nn.LSTM(emb_dim, hid_dim, n_layers, dropout=dropout)
        self.fc_out = nn.Linear(hid_dim, output_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, input, hidden, cell):
        input = input.unsqueeze(0)
        embedded = self.dropout(self.embedding(input))
        output, (hidden, cell) = self.rnn(embedded, (hidden, cell))
        prediction = self.fc_out(output.squeeze(0))
        return prediction, hidden, cell

class Seq2Seq(nn.Module):
    def __init__(self, encoder, decoder, device):
        super().__init__()
        self.encoder = encoder
        self.decoder = decoder
        self.device = device

    def forward(self, src, trg, teacher_forcing_ratio=0.5):
        batch_size = trg.shape[1]
        trg_len = trg.shape[0]
        trg_vocab_size = self.decoder.output_dim
        outputs = torch.zeros(trg_len, batch_size, trg_vocab_size).to(self.device)
        hidden, cell = self.encoder(src)
        input = trg[0, :]
        for t in range(1, trg_len):
            output, hidden, cell = self.decoder(input, hidden, cell)
            outputs[t] = output
            teacher_force = random.random() < teacher_forcing_ratio
            top1 = output.argmax(1)
            input = trg[t] if teacher_force else top1
        return outputs

INPUT_DIM, OUTPUT_DIM = 30, 25
enc = Encoder(INPUT_DIM, 8, 16, 2, 0.5)
dec = Decoder(OUTPUT_DIM, 8, 16, 2, 0.5)
model = Seq2Seq(enc, dec, device).to(device)
src = torch.randint(0, INPUT_DIM, (7, 4)).to(device)     # batch.src from a BucketIterator(device=device)
trg = torch.randint(0, OUTPUT_DIM, (6, 4)).to(device)
criterion = nn.CrossEntropyLoss(ignore_index=1)
'''
CELL = '''
random.seed(0)
with torch.no_grad():
    output = model(src, trg)
    output_dim = output.shape[-1]
    loss = criterion(output[1:].view(-1, output_dim), trg[1:].view(-1))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
