"""Look-alike: unsloth's offloaded embedding: `embed_tokens` lives in CPU RAM while the decoder is on cuda:0, and forward hooks carry the ids down and the hidden states back.

Source: https://github.com/unslothai/unsloth/pull/6774
`offload_embedding=True` moves `embed_tokens` to the CPU; `_install_offload_embedding_hooks(embed_tokens,
return_device)` adds a forward pre-hook that sends the ids to the embedding weight's current device and a
forward hook that returns the output to `return_device`, the decoder device captured before the offload.
With the ids handed over on cuda:0 (as after `.to("cuda:0")`), the lookup runs on the CPU and everything
after it on the GPU; `position_ids` are built on the ids' device. Stand-ins: a tiny Llama-shaped model
with a rotary embedding on the decoder, generate() reduced to its first forward.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class LlamaRotaryEmbedding(nn.Module):
    def __init__(self, dim=8, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    @torch.no_grad()
    def forward(self, x, position_ids):
        inv_freq_expanded = self.inv_freq.unsqueeze(0).unsqueeze(-1).float().expand(position_ids.shape[0], -1, 1).to(x.device)
        position_ids_expanded = position_ids.unsqueeze(1).float()
        freqs = (inv_freq_expanded.float() @ position_ids_expanded.float()).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(x.dtype), emb.sin().to(x.dtype)

class LlamaDecoderLayer(nn.Module):
    def __init__(self, d=32, head_dim=8):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.q_proj = nn.Linear(d, d, bias=False)
        self.reps = d // head_dim
    def forward(self, h, position_embeddings):
        cos, sin = position_embeddings
        q = self.q_proj(self.norm(h))
        return h + q * cos.repeat(1, 1, self.reps) + q * sin.repeat(1, 1, self.reps)

class LlamaModel(nn.Module):
    def __init__(self, vocab=128, d=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([LlamaDecoderLayer(d), LlamaDecoderLayer(d)])
        self.norm = nn.LayerNorm(d)
        self.rotary_emb = LlamaRotaryEmbedding()
    def forward(self, input_ids, cache_position):
        hidden_states = self.embed_tokens(input_ids)
        position_ids = cache_position.unsqueeze(0)
        position_embeddings = self.rotary_emb(hidden_states, position_ids)
        for layer in self.layers:
            hidden_states = layer(hidden_states, position_embeddings)
        return self.norm(hidden_states)

class LlamaForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = LlamaModel()
        self.lm_head = nn.Linear(32, 128, bias=False)
    def _get_initial_cache_position(self, input_ids):
        return torch.ones_like(input_ids[0, :], dtype=torch.int64).cumsum(0) - 1
    def forward(self, input_ids, cache_position=None):
        return self.lm_head(self.model(input_ids, cache_position))

def _install_offload_embedding_hooks(embed_tokens, return_device):
    # the lookup runs on the weight's current device, the output goes back to the decoder device
    def pre_hook(module, args):
        return (args[0].to(module.weight.device),)
    def post_hook(module, args, output):
        return output.to(return_device)
    embed_tokens.register_forward_pre_hook(pre_hook)
    embed_tokens.register_forward_hook(post_hook)

model = LlamaForCausalLM()
model.model.layers.to("cuda:0")
model.model.norm.to("cuda:0")
model.model.rotary_emb.to("cuda:0")
model.lm_head.to("cuda:0")
# offload_embedding=True: the embedding stays in RAM, its output is returned to the decoder device
_install_offload_embedding_hooks(model.model.embed_tokens, return_device=torch.device("cuda:0"))
input_ids = torch.randint(0, 128, (1, 9)).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    cache_position = model._get_initial_cache_position(input_ids)
    logits = model(input_ids, cache_position=cache_position)
print(logits.device, model.model.embed_tokens.weight.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
