"""Look-alike: LlamaGen's `setup_caches` creates the KV caches, causal mask and 2D RoPE table with no `device=`, inside `with torch.device(device):`.

Source: https://github.com/FoundationVision/LlamaGen/blob/main/autoregressive/models/gpt.py
`Transformer.setup_caches` builds `KVCache` buffers with `torch.zeros(cache_shape, dtype=dtype)`,
`self.causal_mask = torch.tril(torch.ones(L, L, dtype=torch.bool)).unsqueeze(0).repeat(...)` and
`self.freqs_cis = precompute_freqs_cis_2d(...)` (arange/outer/`torch.zeros(cls_token_num, ...)`), all
without a device and the last two as plain attributes that `Module.to()` would not move.
`autoregressive/models/generate.py` calls it as `with torch.device(device): model.setup_caches(...)`,
so every factory call lands on the condition's GPU; the prefill step then indexes the mask and the
RoPE table with `input_pos` on the same device. Nothing to report.
Stand-in: a one-layer c2i GPT (LabelEmbedder, Attention with KVCache, RMSNorm-free), eval mode;
slices and `None`-indexing are written with narrow/unsqueeze/select/index_select and the KV-cache
index assignment as `index_copy_` (the simulated GPU cannot index).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

def find_multiple(n, k):
    if n % k == 0:
        return n
    return n + k - (n % k)

def precompute_freqs_cis_2d(grid_size, n_elem, base=10000, cls_token_num=120):
    half_dim = n_elem // 2
    freqs = 1.0 / (base ** (torch.arange(0, half_dim, 2).narrow(0, 0, half_dim // 2).float() / half_dim))
    t = torch.arange(grid_size, device=freqs.device)
    freqs = torch.outer(t, freqs)
    freqs_grid = torch.concat([
        freqs.unsqueeze(1).expand(-1, grid_size, -1),
        freqs.unsqueeze(0).expand(grid_size, -1, -1),
    ], dim=-1)
    cache_grid = torch.stack([torch.cos(freqs_grid), torch.sin(freqs_grid)], dim=-1)
    cache = cache_grid.flatten(0, 1)
    cond_cache = torch.cat([torch.zeros(cls_token_num, n_elem // 2, 2), cache])
    return cond_cache

def apply_rotary_emb(x, freqs_cis):
    xshaped = x.float().reshape(*x.shape[:-1], -1, 2)
    freqs_cis = freqs_cis.view(1, xshaped.size(1), 1, xshaped.size(3), 2)
    x0, x1 = xshaped.select(-1, 0), xshaped.select(-1, 1)
    f0, f1 = freqs_cis.select(-1, 0), freqs_cis.select(-1, 1)
    x_out2 = torch.stack([x0 * f0 - x1 * f1, x1 * f0 + x0 * f1], dim=-1)
    return x_out2.flatten(3).type_as(x)

class KVCache(nn.Module):
    def __init__(self, max_batch_size, max_seq_length, n_head, head_dim, dtype):
        super().__init__()
        cache_shape = (max_batch_size, n_head, max_seq_length, head_dim)
        self.register_buffer('k_cache', torch.zeros(cache_shape, dtype=dtype))
        self.register_buffer('v_cache', torch.zeros(cache_shape, dtype=dtype))

    def update(self, input_pos, k_val, v_val):
        k_out = self.k_cache
        v_out = self.v_cache
        k_out.index_copy_(2, input_pos, k_val)      # repo: k_out[:, :, input_pos] = k_val
        v_out.index_copy_(2, input_pos, v_val)
        return k_out, v_out

class Attention(nn.Module):
    def __init__(self, dim, n_head):
        super().__init__()
        self.dim, self.n_head, self.head_dim = dim, n_head, dim // n_head
        self.wqkv = nn.Linear(dim, 3 * dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)
        self.kv_cache = None

    def forward(self, x, freqs_cis, input_pos, mask):
        bsz, seqlen, _ = x.shape
        xq, xk, xv = self.wqkv(x).split([self.dim, self.dim, self.dim], dim=-1)
        xq = xq.view(bsz, seqlen, self.n_head, self.head_dim)
        xk = xk.view(bsz, seqlen, self.n_head, self.head_dim)
        xv = xv.view(bsz, seqlen, self.n_head, self.head_dim)
        xq = apply_rotary_emb(xq, freqs_cis)
        xk = apply_rotary_emb(xk, freqs_cis)
        xq, xk, xv = map(lambda x: x.transpose(1, 2), (xq, xk, xv))
        keys, values = self.kv_cache.update(input_pos, xk, xv)
        output = F.scaled_dot_product_attention(xq, keys, values, attn_mask=mask, is_causal=False)
        output = output.transpose(1, 2).contiguous().view(bsz, seqlen, self.dim)
        return self.wo(output)

class TransformerBlock(nn.Module):
    def __init__(self, dim, n_head):
        super().__init__()
        self.attention = Attention(dim, n_head)
        self.feed_forward = nn.Sequential(nn.Linear(dim, 4 * dim), nn.SiLU(), nn.Linear(4 * dim, dim))
        self.attention_norm = nn.LayerNorm(dim)
        self.ffn_norm = nn.LayerNorm(dim)

    def forward(self, x, freqs_cis, start_pos, mask):
        h = x + self.attention(self.attention_norm(x), freqs_cis, start_pos, mask)
        return h + self.feed_forward(self.ffn_norm(h))

class LabelEmbedder(nn.Module):
    def __init__(self, num_classes, hidden_size):
        super().__init__()
        self.embedding_table = nn.Embedding(num_classes + 1, hidden_size)

    def forward(self, labels, train=False):
        return self.embedding_table(labels).unsqueeze(1)

class Transformer(nn.Module):
    """stand-in for autoregressive.models.gpt.Transformer (c2i, one layer)"""
    def __init__(self, dim=64, n_head=4, vocab_size=1024, num_classes=1000, block_size=16, cls_token_num=1):
        super().__init__()
        self.model_type = 'c2i'
        self.dim, self.n_head, self.block_size, self.cls_token_num = dim, n_head, block_size, cls_token_num
        self.num_classes = num_classes
        self.cls_embedding = LabelEmbedder(num_classes, dim)
        self.tok_embeddings = nn.Embedding(vocab_size, dim)
        self.layers = nn.ModuleList([TransformerBlock(dim, n_head)])
        self.norm = nn.LayerNorm(dim)
        self.output = nn.Linear(dim, vocab_size, bias=False)
        self.max_batch_size = -1
        self.max_seq_length = -1

    def setup_caches(self, max_batch_size, max_seq_length, dtype):
        head_dim = self.dim // self.n_head
        max_seq_length = find_multiple(max_seq_length, 8)
        self.max_seq_length = max_seq_length
        self.max_batch_size = max_batch_size
        for b in self.layers:
            b.attention.kv_cache = KVCache(max_batch_size, max_seq_length, self.n_head, head_dim, dtype)
        causal_mask = torch.tril(torch.ones(self.max_seq_length, self.max_seq_length, dtype=torch.bool))
        self.causal_mask = causal_mask.unsqueeze(0).repeat(self.max_batch_size, 1, 1)
        grid_size = int(self.block_size ** 0.5)
        assert grid_size * grid_size == self.block_size
        self.freqs_cis = precompute_freqs_cis_2d(grid_size, self.dim // self.n_head, 10000, self.cls_token_num)

    def forward(self, idx, cond_idx, input_pos=None):
        if cond_idx is not None:  # prefill in inference
            token_embeddings = self.cls_embedding(cond_idx, train=self.training).narrow(1, 0, self.cls_token_num)
        else:  # decode_n_tokens(kv cache) in inference
            token_embeddings = self.tok_embeddings(idx)
        bs = token_embeddings.shape[0]
        mask = self.causal_mask.narrow(0, 0, bs).index_select(1, input_pos).unsqueeze(1)  # repo: [:bs, None, input_pos]
        h = token_embeddings
        freqs_cis = self.freqs_cis.index_select(0, input_pos)                           # repo: [input_pos]
        for layer in self.layers:
            h = layer(h, freqs_cis, input_pos, mask)
        h = self.norm(h)
        logits = self.output(h).float()
        return logits, None

gpt_model = Transformer().to("cuda:0").eval()
class_labels = [207, 360]
c_indices = torch.tensor(class_labels, device="cuda:0")
cfg_scale, max_new_tokens = 4.0, 16
'''
CELL = '''
cond = c_indices
cond_null = torch.ones_like(cond) * gpt_model.num_classes
cond_combined = torch.cat([cond, cond_null])
T = 1
max_seq_length = T + max_new_tokens
max_batch_size = cond.shape[0]

device = cond.device
with torch.device(device):
    max_batch_size_cfg = max_batch_size * 2 if cfg_scale > 1.0 else max_batch_size
    gpt_model.setup_caches(max_batch_size=max_batch_size_cfg, max_seq_length=max_seq_length, dtype=gpt_model.tok_embeddings.weight.dtype)

input_pos = torch.arange(0, T, device=device)
logits, _ = gpt_model(None, cond_combined, input_pos)   # prefill
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
