"""Anomaly-Transformer: `AnomalyAttention.distances` is a plain tensor attribute, but it is created directly on the GPU.

Source: https://github.com/thuml/Anomaly-Transformer/blob/main/model/attn.py
`AnomalyAttention.__init__` fills a `window_size x window_size` |i-j| table on the CPU and stores
`self.distances = torch.zeros(...).cuda()` -- a plain attribute, not a buffer, so `Module.to()`
never moves it; it works because it is built on the same GPU the solver moves the model to, and the
prior association `1/(sqrt(2*pi)*sigma) * exp(-distances**2 / 2 / sigma**2)` is computed there.
Look-alike: a tensor outside `Module.to()` on the model's device, which runs. Stand-in: one
AnomalyAttention + AttentionLayer (`.cuda()` written as `.to("cuda:0")` for the simulated GPU; the
forward's second `.cuda()` on the prior is a no-op on the GPU and is left out).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn

class AnomalyAttention(nn.Module):
    def __init__(self, win_size, mask_flag=True, scale=None, attention_dropout=0.0, output_attention=False):
        super().__init__()
        self.scale = scale
        self.mask_flag = mask_flag
        self.output_attention = output_attention
        self.dropout = nn.Dropout(attention_dropout)
        window_size = win_size
        self.distances = torch.zeros((window_size, window_size)).to("cuda:0")
        distances = torch.zeros((window_size, window_size))
        for i in range(window_size):
            for j in range(window_size):
                distances[i][j] = abs(i - j)
        self.distances = distances.to("cuda:0")

    def forward(self, queries, keys, values, sigma, attn_mask):
        B, L, H, E = queries.shape
        _, S, _, D = values.shape
        scale = self.scale or 1. / math.sqrt(E)
        scores = torch.einsum("blhe,bshe->bhls", queries, keys)
        attn = scale * scores
        sigma = sigma.transpose(1, 2)  # B L H ->  B H L
        window_size = attn.shape[-1]
        sigma = torch.sigmoid(sigma * 5) + 1e-5
        sigma = torch.pow(3, sigma) - 1
        sigma = sigma.unsqueeze(-1).repeat(1, 1, 1, window_size)  # B H L L
        prior = self.distances.unsqueeze(0).unsqueeze(0).repeat(sigma.shape[0], sigma.shape[1], 1, 1)
        prior = 1.0 / (math.sqrt(2 * math.pi) * sigma) * torch.exp(-prior ** 2 / 2 / (sigma ** 2))
        series = self.dropout(torch.softmax(attn, dim=-1))
        V = torch.einsum("bhls,bshd->blhd", series, values)
        return V.contiguous(), series, prior, sigma

class AttentionLayer(nn.Module):
    def __init__(self, attention, d_model, n_heads):
        super().__init__()
        d_keys = d_values = d_model // n_heads
        self.inner_attention = attention
        self.query_projection = nn.Linear(d_model, d_keys * n_heads)
        self.key_projection = nn.Linear(d_model, d_keys * n_heads)
        self.value_projection = nn.Linear(d_model, d_values * n_heads)
        self.sigma_projection = nn.Linear(d_model, n_heads)
        self.out_projection = nn.Linear(d_values * n_heads, d_model)
        self.n_heads = n_heads

    def forward(self, queries, keys, values, attn_mask=None):
        B, L, _ = queries.shape
        _, S, _ = keys.shape
        H = self.n_heads
        x = queries
        queries = self.query_projection(queries).view(B, L, H, -1)
        keys = self.key_projection(keys).view(B, S, H, -1)
        values = self.value_projection(values).view(B, S, H, -1)
        sigma = self.sigma_projection(x).view(B, L, H)
        out, series, prior, sigma = self.inner_attention(queries, keys, values, sigma, attn_mask)
        out = out.view(B, L, -1)
        return self.out_projection(out), series, prior, sigma

win_size, d_model, n_heads = 20, 32, 4
layer = AttentionLayer(AnomalyAttention(win_size, False, attention_dropout=0.0), d_model, n_heads)
layer.to("cuda:0")
x = torch.randn(8, win_size, d_model, device="cuda:0")
'''
CELL = '''
out, series, prior, sigma = layer(x, x, x, attn_mask=None)
print(out.shape, prior.shape, prior.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
