"""SpeechBrain relative positional encoding with fp16 inputs: positions built in float32, then cast.

Source: https://github.com/speechbrain/speechbrain/issues/1470
"`torch.arange` doesn't implemented for `float16`": `RelPosEncXL` built its positions with
`torch.arange(0, seq_len, dtype=x.dtype)`, which fails for half inputs; the workaround from the thread
(as NeMo does) is to compute the positions in float32 and cast the encoding to the input's dtype.
Look-alike: a float16 batch next to float32 position/frequency tensors that are deliberately kept in
float32 and only the finished encoding is cast. Runs on the CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

class RelPosEncXL(nn.Module):
    def __init__(self, emb_dim):
        super().__init__()
        self.emb_dim = emb_dim
        inv_freq = torch.exp(torch.arange(0, self.emb_dim, 2, dtype=torch.float32) * -(math.log(10000.0) / self.emb_dim))
        self.register_buffer("inv_freq", inv_freq)

    def forward(self, x):
        seq_len = x.size(1)
        with torch.no_grad():
            positions = torch.arange(0, seq_len, dtype=torch.float32, device=x.device).unsqueeze(-1)
            sinusoids = positions * self.inv_freq
            pe = torch.zeros(seq_len, self.emb_dim, dtype=torch.float32, device=x.device)
            pe[:, 0::2] = torch.sin(sinusoids)
            pe[:, 1::2] = torch.cos(sinusoids)
            pe = pe.to(x.dtype)
        return pe.unsqueeze(0)

pos_enc = RelPosEncXL(128)               # its inv_freq buffer stays float32 on purpose
x = torch.randn(8, 50, 128).to(torch.float16)
'''
CELL = '''
pos_embs = pos_enc(x)
out = x + pos_embs
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
