"""ESPnet2 VITS text encoder: the padding mask is built from the lengths on the CPU and moved to the embeddings' device and dtype.

Source: https://github.com/espnet/espnet (espnet2/gan_tts/vits/text_encoder.py: TextEncoder.forward; espnet/nets/pytorch_backend/nets_utils.py: make_pad_mask / make_non_pad_mask)
`TextEncoder.forward(x, x_lengths)` computes `x_mask = make_non_pad_mask(x_lengths).to(device=x.device,
dtype=x.dtype).unsqueeze(1)`; `make_pad_mask` turns the lengths into a Python list (`lengths.tolist()`,
or takes a list as in its docstring examples) and builds `seq_range`/the comparison on the CPU, so the
mask is only moved afterwards and then multiplies the cuda projections (`stats = self.proj(x) * x_mask`).
Look-alike: CPU lengths and a CPU-made mask next to a cuda model, converted on purpose; the cell runs.
Stand-ins: make_pad_mask/make_non_pad_mask (list path) and a TextEncoder whose conformer encoder is
reduced to one masked conv layer.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

def make_pad_mask(lengths, xs=None, length_dim=-1, maxlen=None):
    if not isinstance(lengths, list):
        lengths = lengths.long().tolist()
    bs = int(len(lengths))
    if maxlen is None:
        maxlen = int(max(lengths))
    seq_range = torch.arange(0, maxlen, dtype=torch.int64)
    seq_range_expand = seq_range.unsqueeze(0).expand(bs, maxlen)
    seq_length_expand = seq_range_expand.new(lengths).unsqueeze(-1)
    return seq_range_expand >= seq_length_expand

def make_non_pad_mask(lengths, xs=None, length_dim=-1):
    return ~make_pad_mask(lengths, xs, length_dim)

class TextEncoder(nn.Module):
    def __init__(self, vocabs=30, attention_dim=16, out_channels=8):
        super().__init__()
        self.attention_dim = attention_dim
        self.emb = nn.Embedding(vocabs, attention_dim)
        self.encoder = nn.Conv1d(attention_dim, attention_dim, 3, padding=1)   # conformer, reduced
        self.proj = nn.Conv1d(attention_dim, out_channels * 2, 1)

    def forward(self, x, x_lengths):
        x = self.emb(x) * math.sqrt(self.attention_dim)
        x_mask = make_non_pad_mask(x_lengths).to(device=x.device, dtype=x.dtype).unsqueeze(1)
        x = self.encoder(x.transpose(1, 2) * x_mask) * x_mask
        stats = self.proj(x) * x_mask
        m, logs = stats.split(stats.size(1) // 2, dim=1)
        return x, m, logs, x_mask

text_encoder = TextEncoder().to("cuda:0")
text = torch.randint(0, 30, (2, 7)).to("cuda:0")
text_lengths = [7, 5]                      # lengths as a list (make_pad_mask accepts lists)
'''
CELL = '''
with torch.no_grad():
    x, m_p, logs_p, x_mask = text_encoder(text, text_lengths)
print(m_p.shape, x_mask.device, x_mask.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
