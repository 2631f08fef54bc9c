"""verl GRPO on Qwen2.5-VL: the vision tower's rotary embedding buffer stays on the CPU after FSDP wrapping.

Source: https://github.com/verl-project/verl/issues/3669
Training a Qwen2.5-VL actor raised "Expected all tensors to be on the same device, but found at
least two devices, cuda:0 and cpu!" in modeling_qwen2_5_vl.py's vision attention,
`apply_rotary_pos_emb_vision`: `q_embed = (q * cos) + (rotate_half(q) * sin)` with `q` on the GPU
and `cos`/`sin` on the CPU. Those come from `visual.rotary_pos_emb`, whose only tensor is the
non-persistent `inv_freq` buffer; the actor was built on the CPU/meta device and only the
parameters (and persistent state) were carried to the GPU by the FSDP wrapping, so the buffer stayed
behind and `rot_pos_emb` built its table on the CPU. Stand-in: the Qwen2.5-VL vision block at toy
size; the wrapping is shown as moving the parameters only.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)

def apply_rotary_pos_emb_vision(q, k, cos, sin):
    cos, sin = cos.unsqueeze(-2).float(), sin.unsqueeze(-2).float()
    q_embed = (q * cos) + (rotate_half(q) * sin)
    k_embed = (k * cos) + (rotate_half(k) * sin)
    return q_embed, k_embed

class Qwen2_5_VisionRotaryEmbedding(nn.Module):
    def __init__(self, dim=4, theta=10000.0):
        super().__init__()
        inv_freq = 1.0 / (theta ** (torch.arange(0, dim, 2, dtype=torch.float) / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, seqlen):
        seq = torch.arange(seqlen, device=self.inv_freq.device, dtype=self.inv_freq.dtype)
        return torch.outer(seq, self.inv_freq)

class Qwen2_5_VLVisionAttention(nn.Module):
    def __init__(self, dim=32, num_heads=4):
        super().__init__()
        self.num_heads = num_heads
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, hidden_states, position_embeddings):
        seq_length = hidden_states.shape[0]
        q, k, v = self.qkv(hidden_states).reshape(seq_length, 3, self.num_heads, -1).permute(1, 0, 2, 3).unbind(0)
        cos, sin = position_embeddings
        q, k = apply_rotary_pos_emb_vision(q, k, cos, sin)
        attn = torch.softmax(q.transpose(0, 1) @ k.transpose(0, 1).transpose(1, 2) / 8 ** 0.5, dim=-1)
        out = (attn @ v.transpose(0, 1)).transpose(0, 1).reshape(seq_length, -1)
        return self.proj(out)

class Qwen2_5_VisionTransformer(nn.Module):
    def __init__(self, patch_dim=12, dim=32):
        super().__init__()
        self.patch_embed = nn.Linear(patch_dim, dim)
        self.rotary_pos_emb = Qwen2_5_VisionRotaryEmbedding(dim // 4 // 2)   # head_dim // 2
        self.blocks = nn.ModuleList([Qwen2_5_VLVisionAttention(dim) for _ in range(2)])

    def rot_pos_emb(self, grid_thw):
        t, h, w = grid_thw
        hpos_ids = torch.arange(h).unsqueeze(1).expand(-1, w).flatten()
        wpos_ids = torch.arange(w).unsqueeze(0).expand(h, -1).flatten()
        pos_ids = torch.stack([hpos_ids, wpos_ids], dim=-1).repeat(t, 1)
        rotary_pos_emb_full = self.rotary_pos_emb(max(h, w))
        # rotary_pos_emb_full[pos_ids].flatten(1), as an index_select (the simulation cannot index a
        # fake GPU tensor with a tensor)
        idx = pos_ids.to(rotary_pos_emb_full.device).flatten()
        return rotary_pos_emb_full.index_select(0, idx).view(pos_ids.shape[0], -1)

    def forward(self, hidden_states, grid_thw):
        hidden_states = self.patch_embed(hidden_states)
        rotary_pos_emb = self.rot_pos_emb(grid_thw)
        emb = torch.cat((rotary_pos_emb, rotary_pos_emb), dim=-1)
        position_embeddings = (emb.cos(), emb.sin())
        for blk in self.blocks:
            hidden_states = hidden_states + blk(hidden_states, position_embeddings=position_embeddings)
        return hidden_states

class Qwen2_5_VLForConditionalGeneration(nn.Module):
    def __init__(self):
        super().__init__()
        self.visual = Qwen2_5_VisionTransformer()
        self.lm_head = nn.Linear(32, 64, bias=False)

def wrap_params_to_device(module, device):
    """The FSDP wrapping's effect on this module: parameters moved, the non-persistent buffer not."""
    for name, p in list(module.named_parameters()):
        owner = module.get_submodule(name.rpartition(".")[0]) if "." in name else module
        setattr(owner, name.rpartition(".")[2], nn.Parameter(p.detach().to(device), requires_grad=p.requires_grad))

actor_module = Qwen2_5_VLForConditionalGeneration()     # built on the CPU by the worker
wrap_params_to_device(actor_module, "cuda:0")
# one rollout micro-batch: flattened patches and their grid, on the GPU
pixel_values = torch.randn(16, 12).to("cuda:0")
image_grid_thw = (1, 4, 4)
'''
CELL = '''
image_embeds = actor_module.visual(pixel_values, grid_thw=image_grid_thw)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["actor_module.visual.rotary_pos_emb"]
FIX = "namespace"
REFERENCE_FIX = '''
actor_module.visual.rotary_pos_emb.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
