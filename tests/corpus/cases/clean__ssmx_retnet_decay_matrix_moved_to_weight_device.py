"""RetNet (Jamie-Stirling/RetNet) on a GPU after the device fix: `_get_D` still builds `D` on the CPU, `forward` moves it to the weights' device.

Source: https://github.com/Jamie-Stirling/RetNet/blob/main/src/retention.py
In the current `SimpleRetention.forward`, the decay matrix is made by `_get_D` from
`torch.arange(sequence_length)` (CPU) and immediately moved with
`D = self._get_D(sequence_length).to(self.W_Q.device)`, so the parallel retention of a cuda model runs.
Look-alike: a helper that creates CPU tensors inside a module used on the GPU, already moved; it runs.
Stand-in: the repository's RetNet / MultiScaleRetention / SimpleRetention (parallel form only);
xPos left out (the simulator cannot slice a fake cuda tensor), gammas computed with `math`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn

class SimpleRetention(nn.Module):
    def __init__(self, hidden_size, gamma, head_size=None, double_v_dim=False):
        super(SimpleRetention, self).__init__()
        self.hidden_size = hidden_size
        if head_size is None:
            head_size = hidden_size
        self.head_size = head_size
        self.v_dim = head_size * 2 if double_v_dim else head_size
        self.gamma = gamma
        self.W_Q = nn.Parameter(torch.randn(hidden_size, head_size) / hidden_size)
        self.W_K = nn.Parameter(torch.randn(hidden_size, head_size) / hidden_size)
        self.W_V = nn.Parameter(torch.randn(hidden_size, self.v_dim) / hidden_size)

    def forward(self, X):
        sequence_length = X.shape[1]
        D = self._get_D(sequence_length).to(self.W_Q.device)
        Q = (X @ self.W_Q)
        K = (X @ self.W_K)
        V = X @ self.W_V
        ret = (Q @ K.permute(0, 2, 1)) * D.unsqueeze(0)
        return ret @ V

    def _get_D(self, sequence_length):
        n = torch.arange(sequence_length).unsqueeze(1)
        m = torch.arange(sequence_length).unsqueeze(0)
        D = (self.gamma ** (n - m)) * (n >= m).float()
        D[D != D] = 0
        return D

class MultiScaleRetention(nn.Module):
    def __init__(self, hidden_size, heads, double_v_dim=False):
        super(MultiScaleRetention, self).__init__()
        self.hidden_size = hidden_size
        self.v_dim = hidden_size * 2 if double_v_dim else hidden_size
        self.heads = heads
        self.head_size = hidden_size // heads
        lo, hi = math.log(1/32), math.log(1/512)   # RetNet: (1 - torch.exp(torch.linspace(lo, hi, heads))).tolist()
        self.gammas = [1 - math.exp(lo + (hi - lo) * i / (heads - 1)) for i in range(heads)]
        self.swish = lambda x: x * torch.sigmoid(x)
        self.W_G = nn.Parameter(torch.randn(hidden_size, self.v_dim) / hidden_size)
        self.W_O = nn.Parameter(torch.randn(self.v_dim, hidden_size) / hidden_size)
        self.group_norm = nn.GroupNorm(heads, self.v_dim)
        self.retentions = nn.ModuleList([
            SimpleRetention(self.hidden_size, gamma, self.head_size, double_v_dim) for gamma in self.gammas
        ])

    def forward(self, X):
        Y = []
        for i in range(self.heads):
            Y.append(self.retentions[i](X))
        Y = torch.cat(Y, dim=2)
        Y_shape = Y.shape
        Y = self.group_norm(Y.reshape(-1, self.v_dim)).reshape(Y_shape)
        return (self.swish(X @ self.W_G) * Y) @ self.W_O

class RetNet(nn.Module):
    def __init__(self, layers, hidden_dim, ffn_size, heads):
        super(RetNet, self).__init__()
        self.layers = layers
        self.hidden_dim = hidden_dim
        self.ffn_size = ffn_size
        self.heads = heads
        self.retentions = nn.ModuleList([MultiScaleRetention(hidden_dim, heads) for _ in range(layers)])
        self.ffns = nn.ModuleList([
            nn.Sequential(nn.Linear(hidden_dim, ffn_size), nn.GELU(), nn.Linear(ffn_size, hidden_dim))
            for _ in range(layers)
        ])
        self.layer_norms_1 = nn.ModuleList([nn.LayerNorm(hidden_dim) for _ in range(layers)])
        self.layer_norms_2 = nn.ModuleList([nn.LayerNorm(hidden_dim) for _ in range(layers)])

    def forward(self, X):
        for i in range(self.layers):
            Y = self.retentions[i](self.layer_norms_1[i](X)) + X
            X = self.ffns[i](self.layer_norms_2[i](Y)) + Y
        return X

device = torch.device("cuda:0")
layers, hidden_dim, ffn_size, heads = 2, 32, 64, 4
model = RetNet(layers, hidden_dim, ffn_size, heads).to(device)
X = torch.randn(8, 16, hidden_dim, device=device)
'''
CELL = '''
Y = model(X)
print(Y.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
