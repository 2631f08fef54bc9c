"""Look-alike: Infini-attention after the fix, with its softmax scale still a 0-dim CPU tensor.

Source: https://github.com/vmarinowski/infini-attention/pull/1
After the PR, `memory` and `z` are created on the input's device. The forward keeps
`A_dot / torch.sqrt(torch.tensor(self.d_head))`: a tensor made on the CPU inside `forward` and used
with GPU activations. It is a 0-dim tensor, which PyTorch treats like a Python scalar, so the cell
runs. Stand-in as in the bug case (RoPE off, segments taken with `unbind`, layers built then moved).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class InfiniAttention(nn.Module):
    def __init__(self, seq_len, emb_dim, d_head, n_head, n_segments, is_causal=True, device="cpu"):
        super().__init__()
        self.seq_len, self.n_segments, self.seg_len = seq_len, n_segments, seq_len // n_segments
        self.n_head, self.emb_dim, self.d_head, self.is_causal = n_head, emb_dim, d_head, is_causal
        self.beta = nn.Parameter(torch.ones((1,), device=device))
        self.q = nn.Linear(emb_dim, emb_dim).to(device)
        self.k = nn.Linear(emb_dim, emb_dim).to(device)
        self.v = nn.Linear(emb_dim, emb_dim).to(device)
        self.o = nn.Linear(emb_dim, emb_dim).to(device)
        self.elu = nn.ELU()
        self.register_buffer("causal", torch.tril(torch.ones(self.seg_len, self.seg_len, device=device)))

    def _split(self, t, b):
        return t.view(b, self.n_segments, self.seg_len, self.n_head, self.d_head).permute(0, 3, 1, 2, 4)

    def forward(self, x):
        b, _, _ = x.size()
        memory = torch.zeros((self.n_head, self.d_head, self.d_head), device=x.device)
        z = torch.zeros((self.n_head, self.d_head, 1), device=x.device)
        query, key, value = self._split(self.q(x), b), self._split(self.k(x), b), self._split(self.v(x), b)
        output = []
        for q_s, k_s, v_s in zip(query.unbind(2), key.unbind(2), value.unbind(2)):
            sigma_q, sigma_k = self.elu(q_s) + 1.0, self.elu(k_s) + 1.0
            A_mem = (sigma_q @ memory) / ((sigma_q @ z) + 1e-6)
            A_dot = q_s @ k_s.transpose(-2, -1)
            if self.is_causal:
                A_dot = A_dot.masked_fill(self.causal == 0, float("-inf"))
            A_dot = F.softmax(A_dot / torch.sqrt(torch.tensor(self.d_head)), dim=-1) @ v_s
            output.append(torch.sigmoid(self.beta) * A_mem + (1 - torch.sigmoid(self.beta)) * A_dot)
            memory = memory + sigma_k.transpose(-2, -1) @ v_s
            z = z + sigma_k.sum(dim=-2, keepdim=True).transpose(-2, -1)
        attention = torch.cat(output, dim=2).permute(0, 2, 1, 3).reshape(b, self.seq_len, self.emb_dim)
        return self.o(attention)

device = "cuda:0"
attn = InfiniAttention(seq_len=64, emb_dim=32, d_head=8, n_head=4, n_segments=4, device=device)
x = torch.randn(2, 64, 32, device=device)
'''
CELL = '''
y = attn(x)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
