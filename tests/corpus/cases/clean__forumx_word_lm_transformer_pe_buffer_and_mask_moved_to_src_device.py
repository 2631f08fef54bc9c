"""Look-alike: word_language_model's TransformerModel makes its causal mask on the CPU and moves it to `src.device`; `pe` is a buffer.

Source: https://github.com/pytorch/examples/blob/main/word_language_model/model.py
`PositionalEncoding` builds `pe` with `torch.zeros(max_len, d_model)` in `__init__` and registers it
with `self.register_buffer('pe', pe)`, so `model.to(device)` moves it; `TransformerModel.forward`
calls `_generate_square_subsequent_mask(len(src))` (a `torch.ones`/`torch.tril` made without a
device) and then `.to(device)` with `device = src.device` before caching it in `self.src_mask`.
Tensors made without a device inside the model, each moved before use: it runs.
Stand-in: `nn.TransformerEncoder` is replaced by one masked `scaled_dot_product_attention` layer
(the real encoder reads mask values, which meta does not hold); the GPU is meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout=0.1, max_len=5000):
        super(PositionalEncoding, self).__init__()
        self.dropout = nn.Dropout(p=dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        pe = pe.unsqueeze(0).transpose(0, 1)
        self.register_buffer('pe', pe)

    def forward(self, x):
        x = x + self.pe[:x.size(0), :]
        return self.dropout(x)

class _MaskedSelfAttention(nn.Module):          # stands in for nn.TransformerEncoder
    def __init__(self, ninp):
        super().__init__()
        self.qkv = nn.Linear(ninp, 3 * ninp)
        self.proj = nn.Linear(ninp, ninp)

    def forward(self, src, mask):
        q, k, v = self.qkv(src.transpose(0, 1)).chunk(3, dim=-1)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return self.proj(out).transpose(0, 1)

class TransformerModel(nn.Module):
    def __init__(self, ntoken, ninp, nhead, nhid, nlayers, dropout=0.5):
        super(TransformerModel, self).__init__()
        self.model_type = 'Transformer'
        self.src_mask = None
        self.pos_encoder = PositionalEncoding(ninp, dropout)
        self.encoder = _MaskedSelfAttention(ninp)
        self.input_emb = nn.Embedding(ntoken, ninp)
        self.ninp = ninp
        self.decoder = nn.Linear(ninp, ntoken)

    def _generate_square_subsequent_mask(self, sz):
        return torch.log(torch.tril(torch.ones(sz, sz)))

    def forward(self, src, has_mask=True):
        if has_mask:
            device = src.device
            if self.src_mask is None or self.src_mask.size(0) != len(src):
                mask = self._generate_square_subsequent_mask(len(src)).to(device)
                self.src_mask = mask
        else:
            self.src_mask = None
        src = self.input_emb(src) * math.sqrt(self.ninp)
        src = self.pos_encoder(src)
        output = self.encoder(src, mask=self.src_mask)
        output = self.decoder(output)
        return F.log_softmax(output, dim=-1)

device = torch.device("meta")          # --cuda
ntokens, bptt = 50, 7
model = TransformerModel(ntokens, 16, 2, 32, 2, 0.2).to(device)
criterion = nn.NLLLoss()
data = torch.randint(0, ntokens, (bptt, 4)).to(device)
targets = torch.randint(0, ntokens, (bptt * 4,)).to(device)
'''
CELL = '''
model.train()
model.zero_grad()
output = model(data)
output = output.view(-1, ntokens)
loss = criterion(output, targets)
loss.backward()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
