"""litgpt `generate/sequentially.py`: the GPT's blocks are split over two GPUs and forward hooks carry the activations (and the shared RoPE/mask tensors) across.

Source: https://github.com/Lightning-AI/litgpt/blob/main/litgpt/generate/sequentially.py
`sequential(model, root, max_seq_length, devices)` moves each `Block` to `cuda:{index}` from
`layer_to_device(...)`/`chunk_sizes(...)`, keeps the embeddings, RoPE cache, final norm and head on
the root device, registers `move_block_input` as a `forward_pre_hook` on every block not on the root
("we need to move the block input on the boundaries between devices and also on every non-root device
because the RoPE and mask cache is shared"), and `move_block_output` on the last block to bring its
output back to the root. A model spread over cuda:0 and cuda:1 with CPU-free hand-offs: runs.
Look-alike. Stand-in: the file's helpers and a small litgpt-shaped GPT (blocks take
`x, cos, sin, mask, input_pos`); `replace_device(...)` is written as `submodule.to(target_device)`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from collections import OrderedDict
from functools import partial
import torch
import torch.nn as nn
import torch.nn.functional as F

class Config:
    n_layer = 4
    n_head = 4
    n_embd = 32
    vocab_size = 100
    block_size = 64

def apply_rope(x, cos, sin):
    x1, x2 = x.chunk(2, dim=-1)
    return x * cos + torch.cat((-x2, x1), dim=-1) * sin

class Block(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.norm_1 = nn.LayerNorm(config.n_embd)
        self.qkv = nn.Linear(config.n_embd, 3 * config.n_embd)
        self.proj = nn.Linear(config.n_embd, config.n_embd)
        self.norm_2 = nn.LayerNorm(config.n_embd)
        self.mlp = nn.Sequential(nn.Linear(config.n_embd, 4 * config.n_embd), nn.GELU(),
                                 nn.Linear(4 * config.n_embd, config.n_embd))
        self.n_head = config.n_head

    def forward(self, x, cos, sin, mask, input_pos):
        B, T, C = x.shape
        q, k, v = self.qkv(self.norm_1(x)).split(C, dim=2)
        q, k, v = (t.view(B, T, self.n_head, C // self.n_head).transpose(1, 2) for t in (q, k, v))
        q, k = apply_rope(q, cos, sin), apply_rope(k, cos, sin)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        x = x + self.proj(y.transpose(1, 2).reshape(B, T, C))
        return x + self.mlp(self.norm_2(x))

class GPT(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(config.vocab_size, config.n_embd),
            h=nn.ModuleList(Block(config) for _ in range(config.n_layer)),
            ln_f=nn.LayerNorm(config.n_embd),
        ))
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)

    def rope_cache(self, device=None):
        hs = self.config.n_embd // self.config.n_head
        theta = 1.0 / (10000 ** (torch.arange(0, hs, 2, device=device).float() / hs))
        idx_theta = torch.outer(torch.arange(self.config.block_size, device=device).float(), theta).repeat(1, 2)
        return torch.cos(idx_theta), torch.sin(idx_theta)

    def forward(self, idx, input_pos):
        T = idx.size(1)
        cos = self.cos.index_select(0, input_pos)
        sin = self.sin.index_select(0, input_pos)
        mask = self.mask_cache.index_select(2, input_pos)[:, :, :, :T]
        x = self.transformer.wte(idx)
        for block in self.transformer.h:
            x = block(x, cos, sin, mask, input_pos)
        x = self.transformer.ln_f(x)
        return self.lm_head(x)

def chunk_sizes(num_units: int, devices: int) -> list[int]:
    cs = num_units // devices
    k = devices * (cs + 1) - num_units
    return [cs] * k + [cs + 1] * (devices - k)

def layer_to_device(module, chunk_on, chunk_sizes):
    hits = [name for name, submodule in module.named_modules() if isinstance(submodule, chunk_on)]
    _devices = [[d] * cs for d, cs in enumerate(chunk_sizes)]
    devices = [d for lst in _devices for d in lst]
    return OrderedDict(zip(hits, devices))

def move_block_input(device: torch.device, module: torch.nn.Module, ins):
    return tuple(t.to(device) if torch.is_tensor(t) else t for t in ins)

def move_block_output(device: torch.device, module: torch.nn.Module, ins, outs) -> torch.Tensor:
    return outs.to(device)

def sequential(model, root: torch.device, max_seq_length: int, devices: int):
    mapping = layer_to_device(model, chunk_on=Block, chunk_sizes=chunk_sizes(model.config.n_layer, devices))
    num_layers_per_device = {i: sum(1 for v in mapping.values() if v == i) for i in range(devices)}
    for path, target_index in mapping.items():
        submodule = model.get_submodule(path)
        target_device = torch.device(root.type, target_index)
        submodule.to(target_device)
    model.cos, model.sin = model.rope_cache(device=root)
    model.mask_cache = torch.ones(max_seq_length, max_seq_length, device=root, dtype=torch.bool).tril()[None, None]
    for name in ("transformer.wte", "transformer.ln_f", "lm_head"):
        model.get_submodule(name).to(root)
    if devices > 1:
        for layer_num, (path, target_index) in enumerate(mapping.items()):
            submodule = model.get_submodule(path)
            if layer_num >= num_layers_per_device[target_index]:
                target_device = torch.device(root.type, target_index)
                submodule.register_forward_pre_hook(partial(move_block_input, target_device))
            if layer_num == model.config.n_layer - 1:
                submodule.register_forward_hook(partial(move_block_output, root))
    return model

model = GPT(Config())
model.eval()
model = sequential(model, torch.device("cuda", 0), max_seq_length=64, devices=2)
encoded = torch.randint(0, 100, (1, 8), device="cuda:0")
input_pos = torch.arange(0, 8, device="cuda:0")
'''
CELL = '''
logits = model(encoded, input_pos)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
