"""Refactored Annotated Transformer on GPUs: the validation `batch.src` fed to `greedy_decode` is still on the CPU.

Source: https://github.com/ictnlp-wshugen/annotated-transformer_codes/issues/2
Running the Annotated Transformer code (the harvardnlp notebook split into modules) on GPUs, a
user got "Expected object of backend CUDA but got backend CPU for argument #3 'index'" when the
translation step decodes a validation batch; another user answered that
`src = batch.src.transpose(0, 1)[:1].cuda()` solved it: the model's embeddings are on the GPU but
the iterator's `batch.src` (and the `src_mask` built from it) are CPU tensors.
Stand-in: the notebook's `EncoderDecoder`, embeddings, positional encoding, one encoder and one
decoder layer, `subsequent_mask` and `greedy_decode`; the torchtext batch is a small object with a
`(len, batch)` `src`. The GPU is simulated by meta (its embedding accepts CPU indices, so the
mismatch surfaces at the masked attention instead of the embedding lookup).
"""

SIM = "meta"
FAMILY = "device-container"
SETUP = '''
import copy, math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

def subsequent_mask(size):
    attn_shape = (1, size, size)
    subsequent_mask = np.triu(np.ones(attn_shape), k=1).astype('uint8')
    return torch.from_numpy(subsequent_mask) == 0

def attention(query, key, value, mask=None):
    d_k = query.size(-1)
    scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask == 0, -1e9)
    return torch.matmul(F.softmax(scores, dim=-1), value)

class MultiHeadedAttention(nn.Module):
    def __init__(self, h, d_model):
        super().__init__()
        self.d_k, self.h = d_model // h, h
        self.linears = nn.ModuleList([nn.Linear(d_model, d_model) for _ in range(4)])
    def forward(self, query, key, value, mask=None):
        if mask is not None:
            mask = mask.unsqueeze(1)
        nbatches = query.size(0)
        query, key, value = [l(x).view(nbatches, -1, self.h, self.d_k).transpose(1, 2)
                             for l, x in zip(self.linears, (query, key, value))]
        x = attention(query, key, value, mask=mask)
        x = x.transpose(1, 2).contiguous().view(nbatches, -1, self.h * self.d_k)
        return self.linears[-1](x)

class EncoderLayer(nn.Module):
    def __init__(self, d_model, h):
        super().__init__()
        self.self_attn = MultiHeadedAttention(h, d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.ReLU(), nn.Linear(2 * d_model, d_model))
        self.norm1, self.norm2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
    def forward(self, x, mask):
        x = x + self.self_attn(*(3 * [self.norm1(x)]), mask)
        return x + self.ff(self.norm2(x))

class DecoderLayer(nn.Module):
    def __init__(self, d_model, h):
        super().__init__()
        self.self_attn = MultiHeadedAttention(h, d_model)
        self.src_attn = MultiHeadedAttention(h, d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.ReLU(), nn.Linear(2 * d_model, d_model))
        self.norms = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(3)])
    def forward(self, x, memory, src_mask, tgt_mask):
        y = self.norms[0](x)
        x = x + self.self_attn(y, y, y, tgt_mask)
        x = x + self.src_attn(self.norms[1](x), memory, memory, src_mask)
        return x + self.ff(self.norms[2](x))

class Embeddings(nn.Module):
    def __init__(self, d_model, vocab):
        super().__init__()
        self.lut = nn.Embedding(vocab, d_model)
        self.d_model = d_model
    def forward(self, x):
        return self.lut(x) * math.sqrt(self.d_model)

class PositionalEncoding(nn.Module):
    def __init__(self, d_model, dropout, max_len=5000):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0., max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0., d_model, 2) * -(math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer('pe', pe.unsqueeze(0))
    def forward(self, x):
        return self.dropout(x + self.pe[:, :x.size(1)])

class Generator(nn.Module):
    def __init__(self, d_model, vocab):
        super().__init__()
        self.proj = nn.Linear(d_model, vocab)
    def forward(self, x):
        return F.log_softmax(self.proj(x), dim=-1)

class EncoderDecoder(nn.Module):
    def __init__(self, encoder, decoder, src_embed, tgt_embed, generator):
        super().__init__()
        self.encoder, self.decoder = encoder, decoder
        self.src_embed, self.tgt_embed = src_embed, tgt_embed
        self.generator = generator
    def encode(self, src, src_mask):
        return self.encoder(self.src_embed(src), src_mask)
    def decode(self, memory, src_mask, tgt, tgt_mask):
        return self.decoder(self.tgt_embed(tgt), memory, src_mask, tgt_mask)

def make_model(src_vocab, tgt_vocab, d_model=32, h=4, dropout=0.1):
    return EncoderDecoder(EncoderLayer(d_model, h), DecoderLayer(d_model, h),
                          nn.Sequential(Embeddings(d_model, src_vocab), PositionalEncoding(d_model, dropout)),
                          nn.Sequential(Embeddings(d_model, tgt_vocab), PositionalEncoding(d_model, dropout)),
                          Generator(d_model, tgt_vocab))

def greedy_decode(model, src, src_mask, max_len, start_symbol):
    memory = model.encode(src, src_mask)
    ys = torch.ones(1, 1).fill_(start_symbol).type_as(src.data)
    for i in range(max_len - 1):
        out = model.decode(memory, src_mask, ys, subsequent_mask(ys.size(1)).type_as(src.data))
        prob = model.generator(out[:, -1])
        _, next_word = torch.max(prob, dim=1)
        next_word = next_word.data[0]
        ys = torch.cat([ys, torch.ones(1, 1).type_as(src.data).fill_(next_word)], dim=1)
    return ys

class Batch:
    "What the torchtext validation iterator yields: (len, batch) token tensors."
    def __init__(self, src, trg):
        self.src, self.trg = src, trg

BLANK, BOS = 1, 2
model = make_model(50, 60).to("meta")    # model.cuda(); the GPU is simulated by meta
model.eval()
batch = Batch(torch.randint(3, 50, (9, 4)), torch.randint(3, 60, (11, 4)))   # from valid_iter, on the CPU
'''
CELL = '''
src = batch.src.transpose(0, 1)[:1]
src_mask = (src != BLANK).unsqueeze(-2)
out = greedy_decode(model, src, src_mask, max_len=8, start_symbol=BOS)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device",
                "found at least two devices")
CULPRITS = ["batch.src"]
FIX = "namespace"
REFERENCE_FIX = '''
batch.src = batch.src.to("meta")
'''
REFERENCE_EDIT = None
CLEAN = False
