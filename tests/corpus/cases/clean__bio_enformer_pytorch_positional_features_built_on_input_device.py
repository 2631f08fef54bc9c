"""Look-alike: enformer-pytorch attention builds its relative positional features inside `forward`, on the input's device.

Source: https://github.com/lucidrains/enformer-pytorch/blob/main/enformer_pytorch/modeling_enformer.py
`Attention.forward` calls `get_positional_embed(n, self.num_rel_pos_features, device)` with
`device = x.device` on every call (tensors created in forward, but given the device), and the
one-hot DNA input is moved to the model's device before the call. Stand-in: the exponential
positional features, the attention with `to_rel_k`, and a pointwise stem; model and input on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

def get_positional_features_exponential(positions, features, seq_len, min_half_life=3.):
    max_range = math.log(seq_len) / math.log(2.)
    half_life = 2 ** torch.linspace(min_half_life, max_range, features, device=positions.device)
    half_life = half_life[None, ...]
    positions = positions.abs()[..., None]
    return torch.exp(-math.log(2.) / half_life * positions)

def get_positional_embed(seq_len, feature_size, device):
    distances = torch.arange(-seq_len + 1, seq_len, device=device)
    embeddings = get_positional_features_exponential(distances, feature_size // 2, seq_len)
    return torch.cat((embeddings, torch.sign(distances)[..., None] * embeddings), dim=-1)

class Attention(nn.Module):
    def __init__(self, dim=32, dim_key=16, num_rel_pos_features=8):
        super().__init__()
        self.num_rel_pos_features = num_rel_pos_features
        self.to_q = nn.Linear(dim, dim_key, bias=False)
        self.to_k = nn.Linear(dim, dim_key, bias=False)
        self.to_v = nn.Linear(dim, dim, bias=False)
        self.to_rel_k = nn.Linear(num_rel_pos_features, dim_key, bias=False)
        self.to_out = nn.Linear(dim, dim)
    def forward(self, x):
        n, device = x.shape[-2], x.device
        q, k, v = self.to_q(x), self.to_k(x), self.to_v(x)
        positions = get_positional_embed(n, self.num_rel_pos_features, device)
        rel_k = self.to_rel_k(positions)
        content_logits = q @ k.transpose(-1, -2)
        rel_logits = q @ rel_k.transpose(-1, -2)
        attn = (content_logits + rel_logits[..., n - 1:]).softmax(-1)
        return self.to_out(attn @ v)

class Enformer(nn.Module):
    def __init__(self, dim=32, tracks=16):
        super().__init__()
        self.stem = nn.Linear(4, dim)
        self.attn = Attention(dim)
        self.head = nn.Linear(dim, tracks)
    def forward(self, x):
        h = self.stem(x)
        h = h + self.attn(h)
        return nn.functional.softplus(self.head(h))

device = torch.device("cuda:0")
model = Enformer().eval().to(device)
seq = torch.nn.functional.one_hot(torch.randint(0, 4, (1, 24)), 4).float()
'''
CELL = '''
with torch.no_grad():
    output = model(seq.to(device))
print(output.shape, output.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
