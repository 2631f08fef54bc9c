"""Bart `EncoderLayer` called directly with `attn_mask = torch.ones(...)`: a float padding mask reaches `masked_fill`.

Source: https://github.com/huggingface/transformers/issues/5424
The user ran a single Bart EncoderLayer with `attn_mask = torch.ones(hidden_states.shape[:2])` and
got, at `attn_weights = attn_weights.masked_fill(reshaped, float("-inf"))`, "Expected object of scalar
type Bool but got scalar type Float for argument #2 'mask'": the layer's `encoder_padding_mask` is a
boolean "is padding" mask, while `torch.ones` gives a float tensor (and with the opposite meaning).
Stand-in: the encoder layer's self-attention reduced. Run on the CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch
from torch import nn

class EncoderLayer(nn.Module):
    def __init__(self, d_model=64, n_heads=4):
        super().__init__()
        self.n_heads = n_heads
        self.q_proj, self.k_proj, self.v_proj = (nn.Linear(d_model, d_model) for _ in range(3))
        self.out_proj = nn.Linear(d_model, d_model)
        self.norm = nn.LayerNorm(d_model)

    def forward(self, x, encoder_padding_mask):
        tgt_len, bsz, embed_dim = x.shape
        hd = embed_dim // self.n_heads
        q = self.q_proj(x).view(tgt_len, bsz * self.n_heads, hd).transpose(0, 1)
        k = self.k_proj(x).view(tgt_len, bsz * self.n_heads, hd).transpose(0, 1)
        v = self.v_proj(x).view(tgt_len, bsz * self.n_heads, hd).transpose(0, 1)
        attn_weights = torch.bmm(q, k.transpose(1, 2)) * hd ** -0.5
        attn_weights = attn_weights.view(bsz, self.n_heads, tgt_len, tgt_len)
        reshaped = encoder_padding_mask.unsqueeze(1).unsqueeze(2)
        attn_weights = attn_weights.masked_fill(reshaped, float("-inf"))
        attn_weights = attn_weights.view(bsz * self.n_heads, tgt_len, tgt_len).softmax(dim=-1)
        out = torch.bmm(attn_weights, v).transpose(0, 1).reshape(tgt_len, bsz, embed_dim)
        return self.norm(x + self.out_proj(out))

hidden_states = torch.full((3, 7, 64), 0.4)
attn_mask = torch.ones(hidden_states.shape[:2])
layer = EncoderLayer()
'''
CELL = '''
out = layer(hidden_states.transpose(0, 1), attn_mask)
'''
EXPECT_ERROR = "masked_fill_ only supports boolean masks"
CULPRITS = ["attn_mask"]
FIX = "namespace"
REFERENCE_FIX = '''
attn_mask = attn_mask.eq(0)
'''
REFERENCE_EDIT = None
CLEAN = False
