"""InternVL2.5 (Qwen2 LLM) loaded with a device map on 8 GPUs: Qwen2RotaryEmbedding's `inv_freq` buffer is left on the CPU.

Source: https://github.com/huggingface/transformers/pull/35417
"fix: qwen2 rotaty embed inv_freq not in gpu": running InternVL2.5-38B (whose language model is Qwen2)
on an 8xA100 machine, generation failed inside `Qwen2RotaryEmbedding.forward`: the non-persistent `inv_freq` buffer was
not on the GPU while the position ids were. The PR (and its follow-up #35506, "Thanks for the fix!")
moves the expanded `inv_freq` to `x.device` in the rotary forward. Stand-in: a Qwen2-shaped model whose weights
the device map placed on cuda:0 while the model-level `rotary_emb` (no weights, one non-persistent
buffer) stayed where it was built, with Qwen2RotaryEmbedding's forward.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class Qwen2RotaryEmbedding(nn.Module):
    def __init__(self, dim, base=1000000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)
        self.attention_scaling = 1.0

    @torch.no_grad()
    def forward(self, x, position_ids):
        inv_freq_expanded = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        position_ids_expanded = position_ids[:, None, :].float()
        freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        cos = emb.cos() * self.attention_scaling
        sin = emb.sin() * self.attention_scaling
        return cos.to(dtype=x.dtype), sin.to(dtype=x.dtype)

class Qwen2Model(nn.Module):
    def __init__(self, vocab=100, hidden=64, heads=4):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.layer = nn.Linear(hidden, hidden, bias=False)
        self.rotary_emb = Qwen2RotaryEmbedding(hidden // heads)
        self.norm = nn.LayerNorm(hidden)

    def forward(self, inputs_embeds):
        position_ids = torch.arange(inputs_embeds.shape[1], device=inputs_embeds.device).unsqueeze(0)
        hidden_states = inputs_embeds
        position_embeddings = self.rotary_emb(hidden_states, position_ids)
        hidden_states = hidden_states + self.layer(hidden_states)
        return self.norm(hidden_states), position_embeddings

language_model = Qwen2Model()
language_model.embed_tokens.to("cuda:0")
language_model.layer.to("cuda:0")
language_model.norm.to("cuda:0")
# language_model.rotary_emb: holds no weights, its inv_freq buffer is still on the CPU
input_embeds = language_model.embed_tokens(torch.randint(0, 100, (1, 12)).to("cuda:0"))
'''
CELL = '''
outputs, (cos, sin) = language_model(input_embeds)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["language_model.rotary_emb"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("inv_freq_expanded = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)",
                  "inv_freq_expanded = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1).to(x.device)")
CLEAN = False
