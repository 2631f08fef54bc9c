"""Annotated Transformer notebook on a GPU: the copy-task `Batch` (src, src_mask) stays on the CPU.

Source: https://github.com/harvardnlp/annotated-transformer/issues/25
Running the notebook's copy task after moving the model to CUDA, a reader hit "Expected object of
backend CUDA but got backend CPU for argument #3 'index'" in `encode` -> `self.src_embed(src)`:
`data_gen` builds `Batch(src, tgt, 0)` from CPU tensors, so `batch.src` (the embedding indices)
and `batch.src_mask` are CPU tensors while the model's weights are on the GPU. Stand-in: the
notebook's `Batch`, `data_gen`, embeddings, positional encoding and a one-layer encoder with the
masked attention; `torch.randint` replaces the NumPy draw.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable

def subsequent_mask(size):
    attn_shape = (1, size, size)
    return torch.triu(torch.ones(attn_shape, dtype=torch.uint8), diagonal=1) == 0

class Batch:
    "Object for holding a batch of data with mask during training."
    def __init__(self, src, trg=None, pad=0):
        self.src = src
        self.src_mask = (src != pad).unsqueeze(-2)
        if trg is not None:
            self.trg = trg[:, :-1]
            self.trg_y = trg[:, 1:]
            self.trg_mask = self.make_std_mask(self.trg, pad)

    @staticmethod
    def make_std_mask(tgt, pad):
        tgt_mask = (tgt != pad).unsqueeze(-2)
        return tgt_mask & subsequent_mask(tgt.size(-1))

def data_gen(V, batch, nbatches):
    for i in range(nbatches):
        data = torch.randint(1, V, (batch, 10))
        data[:, 0] = 1
        src = Variable(data, requires_grad=False)
        tgt = Variable(data, requires_grad=False)
        yield Batch(src, tgt, 0)

class Embeddings(nn.Module):
    def __init__(self, d_model, vocab):
        super(Embeddings, self).__init__()
        self.lut = nn.Embedding(vocab, d_model)
        self.d_model = d_model
    def forward(self, x):
        return self.lut(x) * math.sqrt(self.d_model)

class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout, max_len=5000):
        super(PositionalEncoding, self).__init__()
        self.dropout = nn.Dropout(p=dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0.0, max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0.0, d_model, 2) * -(math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer('pe', pe.unsqueeze(0))
    def forward(self, x):
        return self.dropout(x + self.pe[:, :x.size(1)])

class EncoderLayer(nn.Module):
    def __init__(self, d_model):
        super(EncoderLayer, self).__init__()
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)
    def forward(self, x, mask):
        q, k, v = self.qkv(x).chunk(3, -1)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
        scores = scores.masked_fill(mask == 0, -1e9)
        return x + self.out(torch.matmul(F.softmax(scores, dim=-1), v))

class EncoderDecoder(nn.Module):
    def __init__(self, encoder, src_embed):
        super(EncoderDecoder, self).__init__()
        self.encoder = encoder
        self.src_embed = src_embed
    def encode(self, src, src_mask):
        return self.encoder(self.src_embed(src), src_mask)

V = 11
model = EncoderDecoder(EncoderLayer(32), nn.Sequential(Embeddings(32, V), PositionalEncoding(32, 0.1)))
model.to("cuda:0")      # model.cuda()
batch = next(data_gen(V, 30, 20))
'''
CELL = '''
memory = model.encode(batch.src, batch.src_mask)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["batch.src", "batch.src_mask"]
FIX = "namespace"
REFERENCE_FIX = '''
batch.src = batch.src.to("cuda:0")
batch.src_mask = batch.src_mask.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
