"""Infini-attention's compressive memory and normaliser are made with `torch.zeros` on the CPU in every forward.

Source: https://github.com/vmarinowski/infini-attention/pull/1
"When `device` is not `cpu` the code fails as the `memory` and `z` in forward pass are not
allocated to `self.device`": `InfiniAttention.forward` starts each call with
`memory = torch.zeros((n_head, d_head, d_head))` and `z = torch.zeros((n_head, d_head, 1))`, while
the projections (built with `device=device`) and the input are on the GPU, so the first
`sigma_q @ memory` mixes devices. Stand-in: the module with RoPE switched off and the segment
reshapes made consistent (segments taken with `unbind`: the simulator cannot index fake GPU
tensors with `[]`); the softmax scale keeps the original CPU `torch.tensor(self.d_head)`
(a 0-dim CPU tensor, which PyTorch allows next to CUDA tensors), and the projections are built
and then moved (`nn.Linear(...).to(device)`: the simulator cannot initialise weights on a fake GPU).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class InfiniAttention(nn.Module):
    def __init__(self, seq_len, emb_dim, d_head, n_head, n_segments,
                 is_causal=True, update="linear", use_rope=False, device="cpu"):
        super().__init__()
        assert seq_len % n_segments == 0, "seq_len must be divisible to n_segments"
        assert emb_dim % n_head == 0, "emb_dim must be divisible to n_head"
        self.seq_len = seq_len
        self.n_segments = n_segments
        self.seg_len = seq_len // n_segments
        self.n_head = n_head
        self.emb_dim = emb_dim
        self.d_head = d_head
        self.is_causal = is_causal
        self.use_rope = use_rope
        self.update = update
        self.device = device

        self.beta = nn.Parameter(torch.ones((1,), device=device))
        self.q = nn.Linear(emb_dim, emb_dim).to(device)
        self.k = nn.Linear(emb_dim, emb_dim).to(device)
        self.v = nn.Linear(emb_dim, emb_dim).to(device)
        self.o = nn.Linear(emb_dim, emb_dim).to(device)
        self.elu = nn.ELU()
        self.register_buffer("causal", torch.tril(torch.ones(self.seg_len, self.seg_len, device=device)))

    def _split(self, t, batch_size):
        t = t.view(batch_size, self.n_segments, self.seg_len, self.n_head, self.d_head)
        return t.permute(0, 3, 1, 2, 4)       # B, H, segments, seg_len, d_head

    def forward(self, x):
        batch_size, _, _ = x.size()

        memory = torch.zeros((self.n_head, self.d_head, self.d_head))
        z = torch.zeros((self.n_head, self.d_head, 1))

        query = self._split(self.q(x), batch_size)
        key = self._split(self.k(x), batch_size)
        value = self._split(self.v(x), batch_size)

        output = []
        segments = zip(query.unbind(2), key.unbind(2), value.unbind(2))
        for idx, (q_s, k_s, v_s) in enumerate(segments):
            sigma_q = self.elu(q_s) + 1.0
            sigma_k = self.elu(k_s) + 1.0
            A_mem = (sigma_q @ memory) / ((sigma_q @ z) + 1e-6)

            A_dot = q_s @ k_s.transpose(-2, -1)
            if self.is_causal:
                A_dot = A_dot.masked_fill(self.causal == 0, float("-inf"))
            A_dot = F.softmax(A_dot / torch.sqrt(torch.tensor(self.d_head)), dim=-1)
            A_dot = A_dot @ v_s

            attention = (torch.sigmoid(self.beta) * A_mem) + ((1 - torch.sigmoid(self.beta)) * A_dot)

            if self.update == "linear":
                memory = memory + (sigma_k.transpose(-2, -1) @ v_s)
            else:
                delta = (sigma_k @ memory) / ((sigma_k @ z) + 1e-6)
                memory = memory + (sigma_k.transpose(-2, -1) @ (v_s - delta))
            z = z + sigma_k.sum(dim=-2, keepdim=True).transpose(-2, -1)
            output.append(attention)

        attention = torch.cat(output, dim=2)                # B, H, seq_len, d_head
        attention = attention.permute(0, 2, 1, 3).reshape(batch_size, self.seq_len, self.emb_dim)
        return self.o(attention)

device = "cuda:0"
attn = InfiniAttention(seq_len=64, emb_dim=32, d_head=8, n_head=4, n_segments=4, device=device)
x = torch.randn(2, 64, 32, device=device)
'''
CELL = '''
y = attn(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["attn"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """        memory = torch.zeros((self.n_head, self.d_head, self.d_head))
        z = torch.zeros((self.n_head, self.d_head, 1))""",
    """        memory = torch.zeros((self.n_head, self.d_head, self.d_head), device=x.device)
        z = torch.zeros((self.n_head, self.d_head, 1), device=x.device)""",
)
CLEAN = False
