"""Transformer-XL builds its decoder attention mask with .byte() and masks the scores with it.

Source: https://github.com/kimiyoung/transformer-xl/issues/115
With torch 1.4 the code warned "masked_fill_ received a mask with dtype torch.uint8, this behavior
is now deprecated, please use a mask with dtype torch.bool instead"; the reply: change `.byte()`
to `.bool()` where `dec_attn_mask` is built. Current PyTorch rejects it: "masked_fill_ only
supports boolean masks, but got mask with dtype unsigned char". Stand-in: the mask construction
and the masked attention scores of one layer.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch
import torch.nn as nn

class RelLayer(nn.Module):
    def __init__(self, d_model=16):
        super().__init__()
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, word_emb, mems_len=0):
        qlen = word_emb.shape[0]
        klen = qlen + mems_len
        dec_attn_mask = torch.triu(word_emb.new_ones(qlen, klen), diagonal=1 + mems_len).byte()[:, :, None]
        q, k, v = self.qkv(word_emb).chunk(3, dim=-1)
        attn_score = torch.einsum("ibd,jbd->ijb", q, k)
        attn_score = attn_score.masked_fill(dec_attn_mask, -float("inf"))
        return torch.einsum("ijb,jbd->ibd", attn_score.softmax(dim=1), v)

model = RelLayer()
word_emb = torch.randn(6, 2, 16)
'''
CELL = '''
out = model(word_emb)
'''
EXPECT_ERROR = "masked_fill_ only supports boolean masks, but got mask with dtype unsigned char"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("diagonal=1 + mems_len).byte()", "diagonal=1 + mems_len).bool()")
CLEAN = False
