"""The Annotated Transformer (2022) `greedy_decode`: `ys` and the `subsequent_mask` are built on the CPU and moved with `.type_as(src.data)`.

Source: https://github.com/harvardnlp/annotated-transformer/blob/master/the_annotated_transformer.py
`ys = torch.zeros(1, 1).fill_(start_symbol).type_as(src.data)`,
`subsequent_mask(ys.size(1)).type_as(src.data)` and
`torch.zeros(1, 1).type_as(src.data).fill_(next_word)` all create CPU tensors, but `type_as` takes
the source tensor's type *and device*, so with `src` from the GPU data loaders (`collate_batch(...,
device)`) and the model on the GPU, as in `check_outputs`, decoding runs. Look-alike: runs.
Stand-in: the notebook's `subsequent_mask`, `greedy_decode` and `Batch` with a one-layer
encoder-decoder; the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import copy, math
import torch
import torch.nn as nn
import torch.nn.functional as F

def subsequent_mask(size):
    "Mask out subsequent positions."
    attn_shape = (1, size, size)
    subsequent_mask = torch.triu(torch.ones(attn_shape), diagonal=1).type(
        torch.uint8
    )
    return subsequent_mask == 0

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
    ys = torch.zeros(1, 1).fill_(start_symbol).type_as(src.data)
    for i in range(max_len - 1):
        out = model.decode(
            memory, src_mask, ys, subsequent_mask(ys.size(1)).type_as(src.data)
        )
        prob = model.generator(out[:, -1])
        _, next_word = torch.max(prob, dim=1)
        next_word = next_word.data[0]
        ys = torch.cat(
            [ys, torch.zeros(1, 1).type_as(src.data).fill_(next_word)], dim=1
        )
    return ys

class Batch:
    """Object for holding a batch of data with mask during training."""
    def __init__(self, src, tgt=None, pad=2):  # 2 = <blank>
        self.src = src
        self.src_mask = (src != pad).unsqueeze(-2)

device = "meta"                          # the GPU (cuda:0) is simulated by meta
pad_idx, start_symbol = 2, 0
model = make_model(50, 60).to(device)
model.eval()
# collate_batch(..., device) builds every batch on the device: torch.tensor([0], device=device) ...
b = (torch.randint(3, 50, (1, 9), device=device), torch.randint(3, 60, (1, 11), device=device))
'''
CELL = '''
rb = Batch(b[0], b[1], pad_idx)
model_out = greedy_decode(model, rb.src, rb.src_mask, 12, start_symbol)[0]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
