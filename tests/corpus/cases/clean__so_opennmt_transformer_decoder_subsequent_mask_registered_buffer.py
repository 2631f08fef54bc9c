"""OpenNMT-py Transformer decoder: the subsequent-position mask is a registered buffer.

Source: https://github.com/OpenNMT/OpenNMT-py/pull/240
"Make mask a buffer": the decoder layer's `mask = get_attn_subsequent_mask(MAX_SIZE)` had been
assigned as a plain attribute before `register_buffer`, so it stayed on the CPU when the model was
moved; the fix registers it with `self.register_buffer('mask', mask)` only, and it then follows
`.cuda()`. Look-alike: a mask tensor made in `__init__` with NumPy/CPU ops and combined with a
cuda padding mask in forward; correct because it is a buffer. Stand-in: the decoder layer's mask
logic and one self-attention block.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

MAX_SIZE = 64

def get_attn_subsequent_mask(size):
    attn_shape = (1, size, size)
    subsequent_mask = np.triu(np.ones(attn_shape), k=1).astype('uint8')
    return torch.from_numpy(subsequent_mask)

class TransformerDecoderLayer(nn.Module):
    def __init__(self, size, head_count):
        super(TransformerDecoderLayer, self).__init__()
        self.self_attn = nn.MultiheadAttention(size, head_count, batch_first=True)
        self.layer_norm = nn.LayerNorm(size)
        mask = get_attn_subsequent_mask(MAX_SIZE)
        self.register_buffer('mask', mask)

    def forward(self, inputs, tgt_pad_mask):
        L = tgt_pad_mask.size(-1)
        dec_mask = torch.gt(tgt_pad_mask + self.mask[:, :L, :L], 0)
        attn_mask = dec_mask.repeat_interleave(self.self_attn.num_heads, dim=0)
        x = self.layer_norm(inputs)
        out, _ = self.self_attn(x, x, x, attn_mask=attn_mask, need_weights=False)
        return inputs + out

layer = TransformerDecoderLayer(32, 4).to("cuda:0")
tgt = torch.randint(1, 50, (2, 12), device="cuda:0")
inputs = torch.randn(2, 12, 32, device="cuda:0")
tgt_pad_mask = tgt.eq(0).unsqueeze(1).expand(2, 12, 12).to(torch.uint8)
'''
CELL = '''
dec_out = layer(inputs, tgt_pad_mask)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
