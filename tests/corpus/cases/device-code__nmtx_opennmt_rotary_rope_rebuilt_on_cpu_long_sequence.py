"""OpenNMT-py with rotary embeddings on the GPU: a batch longer than the rope table makes attention rebuild `self.rope` on the CPU.

Source: https://github.com/OpenNMT/OpenNMT-py/pull/2514
Issue #2513 ("Training fails to start with rotary embedding (Latest OpenNMT-py)"): training a
transformer with `max_relative_positions: -1` on the GPU failed in the encoder's self-attention.
`MultiHeadedAttention.forward` extends the rotary table when the sequence is longer than it,
`self.rope = rotaryembeddings(self.dim_per_head, maxseqlen=(seqlen + 2048))`, and
`rotaryembeddings` builds it on the CPU, so `apply_rotary_emb` mixes the cuda queries with a CPU
rope. The maintainer's fix (PR #2514, "fix rope device for long sequence") appends
`.to(self.rope.device)`. Stand-in: `rotaryembeddings`/`apply_rotary_emb` (non-interleaved path) and
a one-layer encoder-decoder; the rope table is a buffer as OpenNMT's model loader registers it,
its default length shortened to 64 positions.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

def rotaryembeddings(dim: int, maxseqlen=64, base=10000):
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
    tmax = torch.arange(maxseqlen, device=inv_freq.device)
    rope = torch.outer(tmax, inv_freq).float()
    rope = torch.cat((rope, rope), dim=1)
    return torch.cat((rope.cos(), rope.sin()), dim=1)      # stored as [cos | sin] (real) here

def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)

def apply_rotary_emb(query, key, rope, interleave):
    cos, sin = rope.chunk(2, dim=-1)                         # rope.real, rope.imag
    q_embed = (query * cos) + (rotate_half(query) * sin)
    k_embed = (key * cos) + (rotate_half(key) * sin)
    return q_embed.type_as(query), k_embed.type_as(key)

def shape(x, dim_per_head):
    return x.view(x.size(0), x.size(1), -1, dim_per_head).transpose(1, 2)

class MultiHeadedAttention(nn.Module):
    def __init__(self, head_count, model_dim, max_relative_positions=0, rotary_interleave=False):
        super().__init__()
        self.dim_per_head = model_dim // head_count
        self.head_count = head_count
        self.linear_keys = nn.Linear(model_dim, model_dim)
        self.linear_values = nn.Linear(model_dim, model_dim)
        self.linear_query = nn.Linear(model_dim, model_dim)
        self.final_linear = nn.Linear(model_dim, model_dim)
        self.max_relative_positions = max_relative_positions
        if max_relative_positions == -1:  # rotary embeddings
            self.register_buffer("rope", rotaryembeddings(self.dim_per_head), persistent=False)
            self.rotary_interleave = rotary_interleave

    def forward(self, key, value, query, mask=None):
        key = shape(self.linear_keys(key), self.dim_per_head)
        value = shape(self.linear_values(value), self.dim_per_head)
        query = shape(self.linear_query(query), self.dim_per_head)
        if self.max_relative_positions == -1:  # Rotary Embeddings
            start_pos = 0
            seqlen = query.size(2)
            if seqlen > self.rope.size(0):
                self.rope = rotaryembeddings(
                    self.dim_per_head, maxseqlen=(seqlen + 2048)
                )
            rope = self.rope[start_pos : start_pos + seqlen]
            query, key = apply_rotary_emb(query, key, rope, interleave=self.rotary_interleave)
        scores = query @ key.transpose(2, 3) / self.dim_per_head ** 0.5
        attn = torch.softmax(scores, dim=-1)
        context = (attn @ value).transpose(1, 2).reshape(query.size(0), -1, self.head_count * self.dim_per_head)
        return self.final_linear(context), attn

class TransformerEncoder(nn.Module):
    def __init__(self, vocab=100, d=32, heads=4):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, d, padding_idx=1)
        self.self_attn = MultiHeadedAttention(heads, d, max_relative_positions=-1)
        self.layer_norm = nn.LayerNorm(d)

    def forward(self, src, src_len=None):
        x = self.embeddings(src.squeeze(-1))
        context, _ = self.self_attn(x, x, x)
        return self.layer_norm(x + context), None, src_len

class NMTModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = TransformerEncoder()
        self.tgt_embeddings = nn.Embedding(100, 32, padding_idx=1)
        self.generator = nn.Linear(32, 100)

    def forward(self, src, tgt, src_len, bptt=False, with_align=False):
        enc_out, enc_final_hs, src_len = self.encoder(src, src_len)
        dec_out = self.tgt_embeddings(tgt[:, :-1, 0]) + enc_out.mean(1, keepdim=True)
        return self.generator(dec_out), None

device = torch.device("cuda", 0)
model = NMTModel().to(device)
# a training batch with a source longer than the rope table (batch x src_len x feats)
src = torch.randint(2, 100, (2, 80, 1)).to(device)
src_len = torch.tensor([80, 77]).to(device)
tgt = torch.randint(2, 100, (2, 30, 1)).to(device)
'''
CELL = '''
model_out, attns = model(src, tgt, src_len, bptt=False, with_align=False)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("                    self.dim_per_head, maxseqlen=(seqlen + 2048)\n                )\n",
                  "                    self.dim_per_head, maxseqlen=(seqlen + 2048)\n                ).to(self.rope.device)\n")
CLEAN = False
