"""OpenMythos under FSDP MixedPrecision(bf16): RecurrentBlock builds its ACT accumulator with `torch.zeros(B, T)` (fp32) and gates with `still_running.float()`, so `h_out` leaves the block in fp32 and the coda's bf16 Linear fails.

Source: https://github.com/kyegomez/OpenMythos/pull/33
Training a scaled-down model "under FSDP with bf16 MixedPrecision on 4xL40S" failed with "expected mat1
and mat2 to have the same dtype, but got: float != c10::BFloat16". The PR (commit 8c0ce79) explains:
`h` enters `RecurrentBlock.forward` as bf16, but `cumulative_p = torch.zeros(B, T, device=h.device)`
has no dtype (fp32) and `still_running.float()` hard-codes fp32, so the ACT weight promotes `h_out`
to fp32, which flows into the coda blocks. Fix: create `cumulative_p` with `dtype=h.dtype` and use
`still_running.to(h.dtype)` in both places.
Stand-ins: a small OpenMythos (embed, one recurrent block with the library's ACT loop, one coda block,
head) with simplified TransformerBlock / LTIInjection / LoRAAdapter; FSDP's mixed precision as a
wrapper that runs the module with its parameters in `param_dtype` (no sharding). CPU only (dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
from dataclasses import dataclass
import torch
import torch.nn as nn
import torch.nn.functional as F

@dataclass
class MythosConfig:
    vocab_size: int = 100
    dim: int = 32
    lora_rank: int = 4
    max_loop_iters: int = 3
    act_threshold: float = 0.99
    coda_layers: int = 1

class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))
    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight

def loop_index_embedding(h, loop_t, loop_dim, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, loop_dim, 2, device=h.device, dtype=h.dtype) / loop_dim))
    angles = loop_t * freqs
    emb = torch.cat([angles.sin(), angles.cos()], dim=-1)[:loop_dim]
    emb_full = torch.zeros(h.shape[-1], device=h.device, dtype=h.dtype)
    emb_full[:loop_dim] = emb
    return h + emb_full.unsqueeze(0).unsqueeze(0)

class TransformerBlock(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.norm = RMSNorm(cfg.dim)
        self.ffn = nn.Sequential(nn.Linear(cfg.dim, 4 * cfg.dim), nn.GELU(), nn.Linear(4 * cfg.dim, cfg.dim))
    def forward(self, x, freqs_cis=None, mask=None, kv_cache=None, cache_key=None):
        return x + self.ffn(self.norm(x))

class LTIInjection(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.A = nn.Parameter(torch.full((dim,), 0.5))
        self.B = nn.Parameter(torch.full((dim,), 0.5))
    def forward(self, h, e, trans_out):
        return self.A * h + self.B * e + trans_out

class LoRAAdapter(nn.Module):
    def __init__(self, dim, rank, max_loops):
        super().__init__()
        self.down = nn.Linear(dim, rank, bias=False)
        self.up = nn.Linear(rank, dim, bias=False)
        self.scale = nn.Embedding(max_loops, rank)
    def forward(self, x, loop_t):
        s = self.scale.weight[loop_t]
        return self.up(self.down(x) * s)

class ACTHalting(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.halt = nn.Linear(dim, 1)
    def forward(self, h):
        return torch.sigmoid(self.halt(h)).squeeze(-1)

class RecurrentBlock(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.block = TransformerBlock(cfg)
        self.injection = LTIInjection(cfg.dim)
        self.act = ACTHalting(cfg.dim)
        self.lora = LoRAAdapter(cfg.dim, cfg.lora_rank, cfg.max_loop_iters)
        self.norm = RMSNorm(cfg.dim)
        self.loop_dim = cfg.dim // 8

    def forward(self, h, e, freqs_cis=None, mask=None, n_loops=None, kv_cache=None):
        n_loops = n_loops or self.cfg.max_loop_iters
        B, T, D = h.shape

        halted = torch.zeros(B, T, device=h.device, dtype=torch.bool)
        cumulative_p = torch.zeros(B, T, device=h.device)
        h_out = torch.zeros_like(h)

        for t in range(n_loops):
            h_loop = loop_index_embedding(h, t, self.loop_dim)
            combined = self.norm(h_loop + e)
            cache_key = f"recurrent_loop_{t}"
            trans_out = self.block(combined, freqs_cis, mask, kv_cache, cache_key)
            trans_out = trans_out + self.lora(trans_out, t)
            h = self.injection(h, e, trans_out)

            p = self.act(h)  # (B, T)
            still_running = ~halted

            remainder = (1.0 - cumulative_p).clamp(min=0)
            weight = torch.where(
                cumulative_p + p >= self.cfg.act_threshold,
                remainder,
                p,
            )
            weight = weight * still_running.float()
            h_out = h_out + weight.unsqueeze(-1) * h

            cumulative_p = cumulative_p + p * still_running.float()
            halted = halted | (cumulative_p >= self.cfg.act_threshold)

            if halted.all() and kv_cache is None:
                break

        return h_out

class OpenMythos(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.vocab_size, cfg.dim)
        self.recurrent = RecurrentBlock(cfg)
        self.coda = nn.ModuleList([TransformerBlock(cfg) for _ in range(cfg.coda_layers)])
        self.norm = RMSNorm(cfg.dim)
        self.head = nn.Linear(cfg.dim, cfg.vocab_size, bias=False)

    def forward(self, input_ids, n_loops=None):
        x = self.embed(input_ids)
        e = x
        x = self.recurrent(x, e, None, None, n_loops, None)
        for i, layer in enumerate(self.coda):
            x = layer(x, None, None, None, cache_key=f"coda_{i}")
        return self.head(self.norm(x))

class MixedPrecision:
    def __init__(self, param_dtype=None, reduce_dtype=None, buffer_dtype=None):
        self.param_dtype, self.reduce_dtype, self.buffer_dtype = param_dtype, reduce_dtype, buffer_dtype

class FullyShardedDataParallel(nn.Module):
    # stand-in: forward runs on the unsharded parameters cast to param_dtype (no sharding here)
    def __init__(self, module, mixed_precision=None):
        super().__init__()
        self.module = module
        if mixed_precision is not None and mixed_precision.param_dtype is not None:
            for p in module.parameters():
                p.data = p.data.to(mixed_precision.param_dtype)
    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

cfg = MythosConfig()
model = OpenMythos(cfg)
bf16_policy = MixedPrecision(param_dtype=torch.bfloat16, reduce_dtype=torch.bfloat16,
                             buffer_dtype=torch.bfloat16)
fsdp_model = FullyShardedDataParallel(model, mixed_precision=bf16_policy)
input_ids = torch.randint(0, cfg.vocab_size, (2, 12))
'''
CELL = '''
with torch.no_grad():
    logits = fsdp_model(input_ids)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected mat1 and mat2 to have the same dtype",
                "expected m1 and m2 to have the same dtype")
CULPRITS = ["model.recurrent"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        cumulative_p = torch.zeros(B, T, device=h.device)
        h_out = torch.zeros_like(h)

        for t in range(n_loops):
            h_loop = loop_index_embedding(h, t, self.loop_dim)
            combined = self.norm(h_loop + e)
            cache_key = f"recurrent_loop_{t}"
            trans_out = self.block(combined, freqs_cis, mask, kv_cache, cache_key)
            trans_out = trans_out + self.lora(trans_out, t)
            h = self.injection(h, e, trans_out)

            p = self.act(h)  # (B, T)
            still_running = ~halted

            remainder = (1.0 - cumulative_p).clamp(min=0)
            weight = torch.where(
                cumulative_p + p >= self.cfg.act_threshold,
                remainder,
                p,
            )
            weight = weight * still_running.float()
            h_out = h_out + weight.unsqueeze(-1) * h

            cumulative_p = cumulative_p + p * still_running.float()
""", """        cumulative_p = torch.zeros(B, T, device=h.device, dtype=h.dtype)
        h_out = torch.zeros_like(h)

        for t in range(n_loops):
            h_loop = loop_index_embedding(h, t, self.loop_dim)
            combined = self.norm(h_loop + e)
            cache_key = f"recurrent_loop_{t}"
            trans_out = self.block(combined, freqs_cis, mask, kv_cache, cache_key)
            trans_out = trans_out + self.lora(trans_out, t)
            h = self.injection(h, e, trans_out)

            p = self.act(h)  # (B, T)
            still_running = ~halted

            remainder = (1.0 - cumulative_p).clamp(min=0)
            weight = torch.where(
                cumulative_p + p >= self.cfg.act_threshold,
                remainder,
                p,
            )
            weight = weight * still_running.to(h.dtype)
            h_out = h_out + weight.unsqueeze(-1) * h

            cumulative_p = cumulative_p + p * still_running.to(h.dtype)
""")
CLEAN = False
