"""Look-alike: GPT-2 blocks under reentrant gradient checkpointing build their causal mask from a CPU-born non-persistent buffer and their constants with `device=attn_weights.device`.

Source: https://github.com/huggingface/transformers/blob/v4.40.0/src/transformers/models/gpt2/modeling_gpt2.py
`GPT2Attention.__init__` registers `bias = torch.tril(torch.ones((max_positions, max_positions),
dtype=torch.bool))...` and `masked_bias = torch.tensor(-1e4)` with `persistent=False`; `_attn` divides
by `torch.full([], value.size(-1) ** 0.5, dtype=..., device=attn_weights.device)` and masks with a
`torch.full([], torch.finfo(...).min, ..., device=attn_weights.device)`. `GPT2Model.forward` makes
`position_ids = torch.arange(..., device=device)` from `input_ids.device` and, with
`gradient_checkpointing_enable()`, runs each block through `torch.utils.checkpoint.checkpoint`
(reentrant), so backward recomputes the attention. The buffers follow `model.to(device)` and every
factory call names its device: nothing to report.
Stand-in: GPT2Attention/MLP/Block/Model reduced (nn.Linear for Conv1D, no dropout, no past/head mask).
SIM "meta": meta stands in for the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import functools
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint

class GPT2Config:
    vocab_size = 64
    n_positions = 32
    n_embd = 16
    n_head = 2
    n_layer = 2
    layer_norm_epsilon = 1e-5

class GPT2Attention(nn.Module):
    def __init__(self, config):
        super().__init__()
        max_positions = config.n_positions
        self.register_buffer(
            "bias",
            torch.tril(torch.ones((max_positions, max_positions), dtype=torch.bool)).view(
                1, 1, max_positions, max_positions
            ),
            persistent=False,
        )
        self.register_buffer("masked_bias", torch.tensor(-1e4), persistent=False)
        self.embed_dim = config.n_embd
        self.num_heads = config.n_head
        self.head_dim = self.embed_dim // self.num_heads
        self.scale_attn_weights = True
        self.c_attn = nn.Linear(self.embed_dim, 3 * self.embed_dim)
        self.c_proj = nn.Linear(self.embed_dim, self.embed_dim)

    def _attn(self, query, key, value, attention_mask=None):
        attn_weights = torch.matmul(query, key.transpose(-1, -2))
        if self.scale_attn_weights:
            attn_weights = attn_weights / torch.full(
                [], value.size(-1) ** 0.5, dtype=attn_weights.dtype, device=attn_weights.device
            )
        query_length, key_length = query.size(-2), key.size(-2)
        causal_mask = self.bias[:, :, key_length - query_length : key_length, :key_length]
        mask_value = torch.finfo(attn_weights.dtype).min
        mask_value = torch.full([], mask_value, dtype=attn_weights.dtype, device=attn_weights.device)
        attn_weights = torch.where(causal_mask, attn_weights.to(attn_weights.dtype), mask_value)
        if attention_mask is not None:
            attn_weights = attn_weights + attention_mask
        attn_weights = F.softmax(attn_weights, dim=-1)
        attn_output = torch.matmul(attn_weights, value)
        return attn_output, attn_weights

    def _split_heads(self, tensor, num_heads, attn_head_size):
        new_shape = tensor.size()[:-1] + (num_heads, attn_head_size)
        return tensor.view(new_shape).permute(0, 2, 1, 3)

    def _merge_heads(self, tensor, num_heads, attn_head_size):
        tensor = tensor.permute(0, 2, 1, 3).contiguous()
        new_shape = tensor.size()[:-2] + (num_heads * attn_head_size,)
        return tensor.view(new_shape)

    def forward(self, hidden_states, attention_mask=None):
        query, key, value = self.c_attn(hidden_states).split(self.embed_dim, dim=2)
        query = self._split_heads(query, self.num_heads, self.head_dim)
        key = self._split_heads(key, self.num_heads, self.head_dim)
        value = self._split_heads(value, self.num_heads, self.head_dim)
        attn_output, _ = self._attn(query, key, value, attention_mask)
        attn_output = self._merge_heads(attn_output, self.num_heads, self.head_dim)
        return self.c_proj(attn_output)

class GPT2Block(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.ln_1 = nn.LayerNorm(config.n_embd, eps=config.layer_norm_epsilon)
        self.attn = GPT2Attention(config)
        self.ln_2 = nn.LayerNorm(config.n_embd, eps=config.layer_norm_epsilon)
        self.mlp = nn.Sequential(nn.Linear(config.n_embd, 4 * config.n_embd), nn.GELU(),
                                 nn.Linear(4 * config.n_embd, config.n_embd))

    def forward(self, hidden_states, attention_mask=None):
        hidden_states = hidden_states + self.attn(self.ln_1(hidden_states), attention_mask=attention_mask)
        hidden_states = hidden_states + self.mlp(self.ln_2(hidden_states))
        return hidden_states

class GPT2LMHeadModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.wte = nn.Embedding(config.vocab_size, config.n_embd)
        self.wpe = nn.Embedding(config.n_positions, config.n_embd)
        self.h = nn.ModuleList([GPT2Block(config) for _ in range(config.n_layer)])
        self.ln_f = nn.LayerNorm(config.n_embd, eps=config.layer_norm_epsilon)
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
        self.gradient_checkpointing = False

    def gradient_checkpointing_enable(self, gradient_checkpointing_kwargs=None):
        if gradient_checkpointing_kwargs is None:
            gradient_checkpointing_kwargs = {"use_reentrant": True}
        self._gradient_checkpointing_func = functools.partial(checkpoint, **gradient_checkpointing_kwargs)
        self.gradient_checkpointing = True

    def forward(self, input_ids, labels=None):
        input_shape = input_ids.size()
        device = input_ids.device
        past_length = 0
        position_ids = torch.arange(past_length, input_shape[-1] + past_length, dtype=torch.long, device=device)
        position_ids = position_ids.unsqueeze(0)
        hidden_states = self.wte(input_ids) + self.wpe(position_ids)
        for block in self.h:
            if self.gradient_checkpointing and self.training:
                hidden_states = self._gradient_checkpointing_func(block.__call__, hidden_states, None)
            else:
                hidden_states = block(hidden_states)
        lm_logits = self.lm_head(self.ln_f(hidden_states))
        loss = None
        if labels is not None:
            shift_logits = lm_logits[..., :-1, :].contiguous()
            shift_labels = labels[..., 1:].contiguous()
            loss = F.cross_entropy(shift_logits.view(-1, shift_logits.size(-1)), shift_labels.view(-1))
        return loss, lm_logits

device = torch.device("meta")            # "cuda"
model = GPT2LMHeadModel(GPT2Config())
model.gradient_checkpointing_enable()
model.to(device)
model.train()
optimizer = torch.optim.AdamW(model.parameters(), lr=5e-5)
batch = {"input_ids": torch.randint(0, 64, (2, 12))}
batch["labels"] = batch["input_ids"].clone()
'''
CELL = '''
batch = {k: v.to(device) for k, v in batch.items()}
loss, logits = model(**batch)
loss.backward()
optimizer.step()
optimizer.zero_grad()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
