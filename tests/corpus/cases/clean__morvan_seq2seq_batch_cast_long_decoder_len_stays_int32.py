"""Look-alike: NLP-Tutorials seq2seq casts the int32 batch to Long in the loop; `decoder_len` stays int32.

Source: https://github.com/MorvanZhou/NLP-Tutorials/issues/20
The contributor's fix, now in pytorch/seq2seq.py: `bx = bx.type(torch.LongTensor)` and
`by = by.type(torch.LongTensor)` right after `bx, by, decoder_len = batch`. The int32 DataLoader
tensors (`decoder_len`, and the batch before the cast) remain in the namespace but never reach
the loss: nothing to report. The DateData set is stood in for by random int32 index arrays.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
from torch.nn.functional import cross_entropy

class Seq2Seq(nn.Module):
    def __init__(self, enc_v_dim, dec_v_dim, emb_dim, units):
        super().__init__()
        self.units = units
        self.dec_v_dim = dec_v_dim
        self.enc_embeddings = nn.Embedding(enc_v_dim, emb_dim)
        self.encoder = nn.LSTM(emb_dim, units, 1, batch_first=True)
        self.dec_embeddings = nn.Embedding(dec_v_dim, emb_dim)
        self.decoder_cell = nn.LSTMCell(emb_dim, units)
        self.decoder_dense = nn.Linear(units, dec_v_dim)
        self.opt = torch.optim.Adam(self.parameters(), lr=0.001)

    def encode(self, x):
        embedded = self.enc_embeddings(x)
        hidden = (torch.zeros(1, x.shape[0], self.units), torch.zeros(1, x.shape[0], self.units))
        o, (h, c) = self.encoder(embedded, hidden)
        return h, c

    def train_logit(self, x, y):
        hx, cx = self.encode(x)
        hx, cx = hx[0], cx[0]
        dec_emb_in = self.dec_embeddings(y[:, :-1]).permute(1, 0, 2)
        output = []
        for i in range(dec_emb_in.shape[0]):
            hx, cx = self.decoder_cell(dec_emb_in[i], (hx, cx))
            output.append(self.decoder_dense(hx))
        return torch.stack(output, dim=0).permute(1, 0, 2)

    def step(self, x, y):
        self.opt.zero_grad()
        logit = self.train_logit(x, y)
        loss = cross_entropy(logit.reshape(-1, self.dec_v_dim), y[:, 1:].reshape(-1))
        loss.backward()
        self.opt.step()
        return loss.detach().numpy()

x = np.random.randint(0, 25, size=(64, 8)).astype(np.int32)
y = np.random.randint(0, 25, size=(64, 11)).astype(np.int32)
lens = np.full((64,), 11, dtype=np.int32)
loader = DataLoader(TensorDataset(torch.from_numpy(x), torch.from_numpy(y), torch.from_numpy(lens)),
                    batch_size=32, shuffle=True)
model = Seq2Seq(27, 27, emb_dim=16, units=32)
'''
CELL = '''
for batch_idx, batch in enumerate(loader):
    bx, by, decoder_len = batch
    bx = bx.type(torch.LongTensor)
    by = by.type(torch.LongTensor)
    loss = model.step(bx, by)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
