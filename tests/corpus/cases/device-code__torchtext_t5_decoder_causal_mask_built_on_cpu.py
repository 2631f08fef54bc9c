"""torchtext prototype T5 on a GPU: the decoder's causal mask is built with `torch.triu(torch.ones(...))` on the CPU.

Source: https://github.com/pytorch/text/pull/1977
"Ensure decoder mask is on same device as other tensors": testing the T5 model on a GPU, "if user was
using a GPU and decoder - the decoder mask would be on the CPU": `T5Model.forward` creates
`decoder_mask = torch.triu(torch.ones((tgt_len, tgt_len), dtype=torch.float64), diagonal=1)` with no
device when no mask is passed, and the decoder's attention masks CUDA scores with it. The PR moves the
mask to the model's device. Stand-in: T5Model.forward's encoder/decoder wiring with one-layer
attention blocks (the relative position bias left out); the padding-mask write `[:, 0] = False` is
written with `narrow(...).fill_` for the fake-cuda simulation.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import torch
from torch import nn

class T5Attention(nn.Module):
    def __init__(self, d_model, nhead):
        super().__init__()
        self.nhead, self.d_head = nhead, d_model // nhead
        self.q, self.k, self.v = (nn.Linear(d_model, d_model, bias=False) for _ in range(3))
        self.o = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x, memory, attn_mask=None, key_padding_mask=None):
        B, T, _ = x.shape
        S = memory.shape[1]
        q = self.q(x).view(B, T, self.nhead, self.d_head).transpose(1, 2)
        k = self.k(memory).view(B, S, self.nhead, self.d_head).transpose(1, 2)
        v = self.v(memory).view(B, S, self.nhead, self.d_head).transpose(1, 2)
        scores = q @ k.transpose(-1, -2)
        if attn_mask is not None:
            scores = scores.masked_fill(attn_mask.view(1, 1, T, S), float("-inf"))
        if key_padding_mask is not None:
            scores = scores.masked_fill(key_padding_mask.view(B, 1, 1, S), float("-inf"))
        out = torch.softmax(scores, dim=-1) @ v
        return self.o(out.transpose(1, 2).reshape(B, T, -1))

class T5Layer(nn.Module):
    def __init__(self, d_model, nhead, is_decoder):
        super().__init__()
        self.self_attn = T5Attention(d_model, nhead)
        self.cross_attn = T5Attention(d_model, nhead) if is_decoder else None
        self.ff = nn.Sequential(nn.Linear(d_model, 4 * d_model, bias=False), nn.ReLU(), nn.Linear(4 * d_model, d_model, bias=False))
        self.norm1, self.norm2, self.norm3 = nn.LayerNorm(d_model), nn.LayerNorm(d_model), nn.LayerNorm(d_model)

    def forward(self, tgt, memory=None, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None):
        x = self.norm1(tgt)
        tgt = tgt + self.self_attn(x, x, tgt_mask, tgt_key_padding_mask)
        if self.cross_attn is not None:
            tgt = tgt + self.cross_attn(self.norm2(tgt), memory, memory_mask, memory_key_padding_mask)
        return tgt + self.ff(self.norm3(tgt))

class T5Model(nn.Module):
    def __init__(self, vocab_size=100, embedding_dim=32, num_attention_heads=4, padding_idx=0,
                 encoder_only=False, linear_head=True, device=None):
        super().__init__()
        self.embedding_dim, self.padding_idx = embedding_dim, padding_idx
        self.encoder_only, self.linear_head = encoder_only, linear_head
        self.device = device
        self.token_embeddings = nn.Embedding(vocab_size, embedding_dim, padding_idx)
        self.encoder = T5Layer(embedding_dim, num_attention_heads, is_decoder=False)
        self.decoder = T5Layer(embedding_dim, num_attention_heads, is_decoder=True)
        self.norm1, self.norm2 = nn.LayerNorm(embedding_dim), nn.LayerNorm(embedding_dim)
        self.lm_head = nn.Linear(embedding_dim, vocab_size, bias=False)

    def forward(self, encoder_tokens, decoder_tokens=None, encoder_mask=None, decoder_mask=None):
        encoder_padding_mask = encoder_tokens.eq(self.padding_idx)
        encoder_embeddings = self.token_embeddings(encoder_tokens)
        encoder_output = self.norm1(self.encoder(encoder_embeddings, tgt_mask=encoder_mask,
                                                 tgt_key_padding_mask=encoder_padding_mask))
        if decoder_mask is None:
            tgt_len = decoder_tokens.shape[1]
            decoder_mask = torch.triu(torch.ones((tgt_len, tgt_len), dtype=torch.float64), diagonal=1)
            decoder_mask = decoder_mask.to(dtype=torch.bool)
        decoder_padding_mask = decoder_tokens.eq(self.padding_idx)
        decoder_padding_mask.narrow(1, 0, 1).fill_(False)     # T5 starts the sequence with the padding idx
        decoder_embeddings = self.token_embeddings(decoder_tokens)
        decoder_output = self.decoder(decoder_embeddings, memory=encoder_output, tgt_mask=decoder_mask,
                                      memory_mask=encoder_mask, tgt_key_padding_mask=decoder_padding_mask,
                                      memory_key_padding_mask=encoder_padding_mask)
        decoder_output = self.norm2(decoder_output)
        if self.linear_head:
            decoder_output = self.lm_head(decoder_output * (self.embedding_dim ** -0.5))
        return {"encoder_output": encoder_output, "decoder_output": decoder_output}

DEVICE = torch.device("cuda:0")
t5_model = T5Model().to(DEVICE).eval()
encoder_tokens = torch.randint(1, 100, (2, 12))
decoder_tokens = torch.cat([torch.zeros(2, 1, dtype=torch.long), torch.randint(1, 100, (2, 7))], dim=1)
'''
CELL = '''
with torch.no_grad():
    output = t5_model(encoder_tokens=encoder_tokens.to(DEVICE), decoder_tokens=decoder_tokens.to(DEVICE))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["t5_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("decoder_mask = decoder_mask.to(dtype=torch.bool)",
                  "decoder_mask = decoder_mask.to(decoder_tokens.device, dtype=torch.bool)")
CLEAN = False
