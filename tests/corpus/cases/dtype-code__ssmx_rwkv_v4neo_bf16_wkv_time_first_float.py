"""RWKV-v4neo trained with `--precision bf16` under DDP: the bf16 WKV kernel receives `time_first` (`u`) as float32.

Source: https://github.com/BlinkDL/RWKV-LM/issues/155
Running RWKV-v4neo's train.py with DDP and bf16 precision failed with "RuntimeError: expected
scalar type BFloat16 but found Float". The reporter traced it to the custom kernel: in
`cuda/wkv_op_bf16.cpp` `u` is read as `bf16`, but `WKV.forward` only does `u = u.contiguous()`,
and `u` is the float32 parameter `time_first` (with DDP + bf16 autocast the weights stay float32;
only k and v come out of the autocast Linear layers as bf16). The workaround that worked:
`u = u.contiguous().bfloat16()`.
Stand-ins: RWKV-v4neo's bf16 `WKV` autograd function and a small RWKV (TimeMix/ChannelMix blocks);
the compiled `wkv_cuda` extension is a PyTorch reference of the WKV recurrence that reads its
arguments with the kernel's pointer types (w float, u/k/v/y bf16), as `data_ptr<T>()` does; Lightning's
bf16 precision is the autocast context. CPU: dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import torch
import torch.nn as nn
from torch.nn import functional as F

T_MAX = 64

class _WkvCudaBf16:
    """Stand-in for the extension built from cuda/wkv_op_bf16.cpp + wkv_cuda_bf16.cu."""
    @staticmethod
    def _data_ptr(t, dtype):          # at::Tensor::data_ptr<T>() checks the scalar type
        if t.dtype != dtype:
            names = {torch.bfloat16: "BFloat16", torch.float32: "Float"}
            raise RuntimeError(f"expected scalar type {names[dtype]} but found {names.get(t.dtype, t.dtype)}")
        return t

    def forward(self, B, T, C, w, u, k, v, y):
        w = self._data_ptr(w, torch.float32)
        u = self._data_ptr(u, torch.bfloat16).float()
        k = self._data_ptr(k, torch.bfloat16).float()
        v = self._data_ptr(v, torch.bfloat16).float()
        y = self._data_ptr(y, torch.bfloat16)
        aa = torch.zeros(B, C); bb = torch.zeros(B, C); pp = torch.full((B, C), -1e38)
        out = []
        for t in range(T):
            kk, vv = k[:, t], v[:, t]
            ww = u + kk
            p = torch.maximum(pp, ww)
            e1, e2 = torch.exp(pp - p), torch.exp(ww - p)
            out.append((e1 * aa + e2 * vv) / (e1 * bb + e2))
            ww = w + pp
            p = torch.maximum(ww, kk)
            e1, e2 = torch.exp(ww - p), torch.exp(kk - p)
            aa, bb, pp = e1 * aa + e2 * vv, e1 * bb + e2, p
        y.copy_(torch.stack(out, dim=1))

wkv_cuda = _WkvCudaBf16()

class WKV(torch.autograd.Function):
    @staticmethod
    def forward(ctx, B, T, C, w, u, k, v):
        ctx.B = B
        ctx.T = T
        ctx.C = C
        assert T <= T_MAX
        assert B * C % min(C, 32) == 0
        w = -torch.exp(w.float().contiguous())
        u = u.contiguous()
        k = k.contiguous()
        v = v.contiguous()
        y = torch.empty((B, T, C), device=w.device, memory_format=torch.contiguous_format, dtype=torch.bfloat16)
        wkv_cuda.forward(B, T, C, w, u, k, v, y)
        ctx.save_for_backward(w, u, k, v, y)
        return y

def RUN_CUDA(B, T, C, w, u, k, v):
    return WKV.apply(B, T, C, w, u, k, v)

class RWKV_TimeMix(nn.Module):
    def __init__(self, args, layer_id):
        super().__init__()
        attn_sz = args.n_embd
        with torch.no_grad():
            ratio_0_to_1 = layer_id / (args.n_layer - 1)
            ratio_1_to_almost0 = 1.0 - (layer_id / args.n_layer)
            decay_speed = torch.tensor([-5 + 8 * (h / (attn_sz - 1)) ** (0.7 + 1.3 * ratio_0_to_1) for h in range(attn_sz)])
            self.time_decay = nn.Parameter(decay_speed)
            zigzag = torch.tensor([(i + 1) % 3 - 1 for i in range(attn_sz)]) * 0.5
            self.time_first = nn.Parameter(torch.ones(attn_sz) * math.log(0.3) + zigzag)
            x = (torch.arange(args.n_embd) / args.n_embd).view(1, 1, -1)
            self.time_mix_k = nn.Parameter(torch.pow(x, ratio_1_to_almost0))
            self.time_mix_v = nn.Parameter(torch.pow(x, ratio_1_to_almost0) + 0.3 * ratio_0_to_1)
            self.time_mix_r = nn.Parameter(torch.pow(x, 0.5 * ratio_1_to_almost0))
        self.time_shift = nn.ZeroPad2d((0, 0, 1, -1))
        self.key = nn.Linear(args.n_embd, attn_sz, bias=False)
        self.value = nn.Linear(args.n_embd, attn_sz, bias=False)
        self.receptance = nn.Linear(args.n_embd, attn_sz, bias=False)
        self.output = nn.Linear(attn_sz, args.n_embd, bias=False)

    def jit_func(self, x):
        xx = self.time_shift(x)
        xk = x * self.time_mix_k + xx * (1 - self.time_mix_k)
        xv = x * self.time_mix_v + xx * (1 - self.time_mix_v)
        xr = x * self.time_mix_r + xx * (1 - self.time_mix_r)
        k = self.key(xk)
        v = self.value(xv)
        r = self.receptance(xr)
        return torch.sigmoid(r), k, v

    def forward(self, x):
        B, T, C = x.size()
        sr, k, v = self.jit_func(x)
        rwkv = sr * RUN_CUDA(B, T, C, self.time_decay, self.time_first, k, v)
        return self.output(rwkv)

class RWKV_ChannelMix(nn.Module):
    def __init__(self, args, layer_id):
        super().__init__()
        self.time_shift = nn.ZeroPad2d((0, 0, 1, -1))
        with torch.no_grad():
            ratio_1_to_almost0 = 1.0 - (layer_id / args.n_layer)
            x = (torch.arange(args.n_embd) / args.n_embd).view(1, 1, -1)
            self.time_mix_k = nn.Parameter(torch.pow(x, ratio_1_to_almost0))
            self.time_mix_r = nn.Parameter(torch.pow(x, ratio_1_to_almost0))
        self.key = nn.Linear(args.n_embd, 4 * args.n_embd, bias=False)
        self.receptance = nn.Linear(args.n_embd, args.n_embd, bias=False)
        self.value = nn.Linear(4 * args.n_embd, args.n_embd, bias=False)

    def forward(self, x):
        xx = self.time_shift(x)
        xk = x * self.time_mix_k + xx * (1 - self.time_mix_k)
        xr = x * self.time_mix_r + xx * (1 - self.time_mix_r)
        k = torch.square(torch.relu(self.key(xk)))
        return torch.sigmoid(self.receptance(xr)) * self.value(k)

class Block(nn.Module):
    def __init__(self, args, layer_id):
        super().__init__()
        self.layer_id = layer_id
        self.ln1 = nn.LayerNorm(args.n_embd)
        self.ln2 = nn.LayerNorm(args.n_embd)
        if layer_id == 0:
            self.ln0 = nn.LayerNorm(args.n_embd)
        self.att = RWKV_TimeMix(args, layer_id)
        self.ffn = RWKV_ChannelMix(args, layer_id)

    def forward(self, x):
        if self.layer_id == 0:
            x = self.ln0(x)
        x = x + self.att(self.ln1(x))
        return x + self.ffn(self.ln2(x))

class RWKV(nn.Module):                      # a pl.LightningModule in RWKV-LM
    def __init__(self, args):
        super().__init__()
        self.args = args
        self.emb = nn.Embedding(args.vocab_size, args.n_embd)
        self.blocks = nn.ModuleList([Block(args, i) for i in range(args.n_layer)])
        self.ln_out = nn.LayerNorm(args.n_embd)
        self.head = nn.Linear(args.n_embd, args.vocab_size, bias=False)

    def forward(self, idx):
        x = self.emb(idx)
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln_out(x))

    def training_step(self, batch, batch_idx):
        idx, targets = batch
        logits = self(idx)
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))

class Args:
    vocab_size = 128
    n_embd = 32
    n_layer = 2
    ctx_len = 32

torch.manual_seed(0)
args = Args()
model = RWKV(args)
idx = torch.randint(0, args.vocab_size, (4, args.ctx_len))
targets = torch.randint(0, args.vocab_size, (4, args.ctx_len))
'''
CELL = '''
with torch.autocast("cpu", dtype=torch.bfloat16):     # Trainer(precision="bf16", strategy="ddp_find_unused_parameters_false")
    loss = model.training_step((idx, targets), 0)
print(loss)
'''
EXPECT_ERROR = "expected scalar type BFloat16 but found Float"
CULPRITS = ["WKV"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("u = u.contiguous()", "u = u.contiguous().bfloat16()")
CLEAN = False
