"""Look-alike: HyenaDNA's implicit long filter registers its positional grid `z`/`t` and decay `deltas` through `OptimModule.register`, so they follow `model.to(device)`; `fftconv` casts the input to the filter dtype and back.

Source: https://github.com/HazyResearch/hyena-dna/blob/d553021b483b82980aa4b868b37ec2d4332e198a/standalone_hyenadna.py
`OptimModule.register(name, tensor, lr)` makes a buffer when `lr == 0.0` (`t`, `deltas` with
`modulation_lr=0.0`) and a Parameter otherwise (`z` with `lr_pos_emb=1e-5`), never a plain attribute.
`HyenaFilter.filter(L)` slices them, runs the Sin-activated implicit MLP and the exponential
modulation; `fftconv(u, k, D)` does `u.to(dtype=k.dtype)` and returns `out.to(dtype=u.dtype)`. All of
it lives on the GPU after `.to(device)`: nothing to report. Stand-ins: the classes as in the file;
HyenaOperator reduced to in_proj, the short depthwise conv, one filter order and out_proj.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn

def fftconv(u, k, D):
    seqlen = u.shape[-1]
    fft_size = 2 * seqlen
    k_f = torch.fft.rfft(k, n=fft_size) / fft_size
    u_f = torch.fft.rfft(u.to(dtype=k.dtype), n=fft_size)
    if len(u.shape) > 3: k_f = k_f.unsqueeze(1)
    y = torch.fft.irfft(u_f * k_f, n=fft_size, norm='forward')[..., :seqlen]
    out = y + u * D.unsqueeze(-1)
    return out.to(dtype=u.dtype)

class OptimModule(nn.Module):
    def register(self, name, tensor, lr=None, wd=0.0):
        if lr == 0.0:
            self.register_buffer(name, tensor)
        else:
            self.register_parameter(name, nn.Parameter(tensor))
            optim = {}
            if lr is not None: optim["lr"] = lr
            if wd is not None: optim["weight_decay"] = wd
            setattr(getattr(self, name), "_optim", optim)

class Sin(nn.Module):
    def __init__(self, dim, w=10, train_freq=True):
        super().__init__()
        self.freq = nn.Parameter(w * torch.ones(1, dim)) if train_freq else w * torch.ones(1, dim)
    def forward(self, x):
        return torch.sin(self.freq * x)

class PositionalEmbedding(OptimModule):
    def __init__(self, emb_dim, seq_len, lr_pos_emb=1e-5, **kwargs):
        super().__init__()
        self.seq_len = seq_len
        t = torch.linspace(0, 1, self.seq_len)[None, :, None]
        if emb_dim > 1:
            bands = (emb_dim - 1) // 2
        t_rescaled = torch.linspace(0, seq_len - 1, seq_len)[None, :, None]
        w = 2 * math.pi * t_rescaled / seq_len
        f = torch.linspace(1e-4, bands - 1, bands)[None, None]
        z = torch.exp(-1j * f * w)
        z = torch.cat([t, z.real, z.imag], dim=-1)
        self.register("z", z, lr=lr_pos_emb)
        self.register("t", t, lr=0.0)
    def forward(self, L):
        return self.z[:, :L], self.t[:, :L]

class ExponentialModulation(OptimModule):
    def __init__(self, d_model, fast_decay_pct=0.3, slow_decay_pct=1.5, target=1e-2,
                 modulation_lr=0.0, modulate=True, shift=0.05, **kwargs):
        super().__init__()
        self.modulate = modulate
        self.shift = shift
        max_decay = math.log(target) / fast_decay_pct
        min_decay = math.log(target) / slow_decay_pct
        deltas = torch.linspace(min_decay, max_decay, d_model)[None, None]
        self.register("deltas", deltas, lr=modulation_lr)
    def forward(self, t, x):
        if self.modulate:
            decay = torch.exp(-t * self.deltas.abs())
            x = x * (decay + self.shift)
        return x

class HyenaFilter(OptimModule):
    def __init__(self, d_model, emb_dim=3, order=16, seq_len=1024, lr=1e-3,
                 lr_pos_emb=1e-5, dropout=0.0, w=1, wd=0, bias=True, num_inner_mlps=2, **kwargs):
        super().__init__()
        self.d_model = d_model
        self.use_bias = bias
        self.bias = nn.Parameter(torch.randn(self.d_model))
        self.dropout = nn.Dropout(dropout)
        act = Sin(dim=order, w=w)
        self.emb_dim = emb_dim
        self.seq_len = seq_len
        self.pos_emb = PositionalEmbedding(emb_dim, seq_len, lr_pos_emb)
        self.implicit_filter = nn.Sequential(nn.Linear(emb_dim, order), act)
        for i in range(num_inner_mlps):
            self.implicit_filter.append(nn.Linear(order, order))
            self.implicit_filter.append(act)
        self.implicit_filter.append(nn.Linear(order, d_model, bias=False))
        self.modulation = ExponentialModulation(d_model, **kwargs)
    def filter(self, L, *args, **kwargs):
        z, t = self.pos_emb(L)
        h = self.implicit_filter(z)
        h = self.modulation(t, h)
        return h
    def forward(self, x, L, k=None, bias=None, *args, **kwargs):
        if k is None: k = self.filter(L)
        k = k[0] if type(k) is tuple else k
        y = fftconv(x, k, bias)
        return y

class HyenaOperator(nn.Module):
    """standalone_hyenadna.HyenaOperator, reduced to order 2."""
    def __init__(self, d_model, l_max, filter_order=64, **filter_args):
        super().__init__()
        self.d_model, self.l_max, self.order = d_model, l_max, 2
        inner_width = d_model * (self.order + 1)
        self.in_proj = nn.Linear(d_model, inner_width)
        self.out_proj = nn.Linear(d_model, d_model)
        self.short_filter = nn.Conv1d(inner_width, inner_width, 3, padding=2, groups=inner_width)
        self.filter_fn = HyenaFilter(d_model * (self.order - 1), order=filter_order,
                                     seq_len=l_max, **filter_args)
    def forward(self, u):
        l = u.size(-2)
        l_filter = min(l, self.l_max)
        u = self.in_proj(u).transpose(1, 2)
        uc = self.short_filter(u)[..., :l_filter]
        x0, x1, v = uc.split(self.d_model, dim=1)
        k = self.filter_fn.filter(l_filter)[0].transpose(0, 1)     # d_model x L
        v = v * x1
        v = self.filter_fn(v, l_filter, k=k, bias=self.filter_fn.bias)
        y = (v * x0).transpose(1, 2)
        return self.out_proj(y)

device = torch.device("cuda:0")
vocab_size, d_model, max_len = 12, 32, 1024
embeddings = nn.Embedding(vocab_size, d_model).to(device)
mixer = HyenaOperator(d_model=d_model, l_max=max_len, filter_order=16).to(device)
mixer.eval()
input_ids = torch.randint(7, 11, (2, 512)).to(device)
'''
CELL = '''
with torch.no_grad():
    hidden = mixer(embeddings(input_ids))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
