"""TranAD: the whole model is cast to float64 and fed `torch.DoubleTensor` windows, on purpose.

Source: https://github.com/imperial-qore/TranAD/blob/main/main.py
`load_model` builds every model with `model_class(dims).double()` and the data loaders wrap
`torch.DoubleTensor` windows, so the transformer, its positional-encoding buffer and the inputs are
all float64; `backprop` permutes the window, takes the last element as the target and runs the
two-phase TranAD step with an MSE loss. Look-alike: float64 weights and inputs everywhere (no
float32 meets a float64), which runs. Stand-in: TranAD reduced to one encoder layer and the two
decoders with the self-conditioning of phase 2. CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import math
import numpy as np
import torch
from torch import nn

class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=5000):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model).float() * (-math.log(10000.0) / d_model))
        pe += torch.sin(position * div_term)
        pe += torch.cos(position * div_term)
        self.register_buffer('pe', pe.unsqueeze(0).transpose(0, 1))

    def forward(self, x, pos=0):
        return self.dropout(x + self.pe[pos:pos + x.size(0), :])

class TranAD(nn.Module):
    def __init__(self, feats, n_window=10):
        super().__init__()
        self.n_feats, self.n_window = feats, n_window
        self.pos_encoder = PositionalEncoding(2 * feats, 0.1, self.n_window)
        self.transformer_encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(d_model=2 * feats, nhead=feats, dim_feedforward=16, dropout=0.1), 1)
        self.transformer_decoder1 = nn.TransformerDecoder(
            nn.TransformerDecoderLayer(d_model=2 * feats, nhead=feats, dim_feedforward=16, dropout=0.1), 1)
        self.transformer_decoder2 = nn.TransformerDecoder(
            nn.TransformerDecoderLayer(d_model=2 * feats, nhead=feats, dim_feedforward=16, dropout=0.1), 1)
        self.fcn = nn.Sequential(nn.Linear(2 * feats, feats), nn.Sigmoid())

    def encode(self, src, c, tgt):
        src = torch.cat((src, c), dim=2)
        src = src * math.sqrt(self.n_feats)
        src = self.pos_encoder(src)
        memory = self.transformer_encoder(src)
        tgt = tgt.repeat(1, 1, 2)
        return tgt, memory

    def forward(self, src, tgt):
        c = torch.zeros_like(src)
        x1 = self.fcn(self.transformer_decoder1(*self.encode(src, c, tgt)))
        c = (x1 - src) ** 2
        x2 = self.fcn(self.transformer_decoder2(*self.encode(src, c, tgt)))
        return x1, x2

dims, n_window, bs = 4, 10, 16
model = TranAD(dims, n_window).double()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=1e-5)
l = nn.MSELoss(reduction='none')
rng = np.random.default_rng(0)
trainD = torch.DoubleTensor(rng.normal(size=(64, n_window, dims)))
dataloader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(trainD, trainD), batch_size=bs)
epoch = 0
'''
CELL = '''
n = epoch + 1
l1s = []
for d, _ in dataloader:
    local_bs = d.shape[0]
    window = d.permute(1, 0, 2)
    elem = window[-1, :, :].view(1, local_bs, dims)
    z = model(window, elem)
    l1 = l(z, elem) if not isinstance(z, tuple) else (1 / n) * l(z[0], elem) + (1 - 1 / n) * l(z[1], elem)
    l1s.append(torch.mean(l1).item())
    loss = torch.mean(l1)
    optimizer.zero_grad()
    loss.backward(retain_graph=True)
    optimizer.step()
print(np.mean(l1s), next(model.parameters()).dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
