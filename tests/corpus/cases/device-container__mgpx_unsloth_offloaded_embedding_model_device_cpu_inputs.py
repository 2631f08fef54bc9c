"""unsloth with the embedding offloaded to RAM: `model.device` says cpu, so `tokenizer(...).to(model.device)` leaves the ids on the CPU and the rotary embedding fails.

Source: https://github.com/unslothai/unsloth/pull/10569
With `offload_embedding = True` (or chosen automatically on a tight card) the documented idiom
`inputs = tokenizer(..., return_tensors="pt").to(model.device); model.generate(**inputs)` fails with
"Expected all tensors to be on the same device, but got mat2 is on cpu, different from other tensors on
cuda:0 (when checking argument in method wrapper_CUDA_bmm)" at `self.rotary_emb(hidden_states,
position_ids)`. `model.device` is the first parameter's device, the offloaded `embed_tokens.weight`, so it
reports cpu; the embedding hooks cope with CPU ids, but `cache_position` / `position_ids` are built on
`input_ids.device`. Passing the ids on cuda:0 by hand works (the PR then makes `model.device` report the
decoder's device). Stand-ins: a tiny Llama, unsloth's embedding-offload hooks, a BatchEncoding, and
generate() reduced to its first forward.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

class BatchEncoding(dict):
    # stand-in for transformers.BatchEncoding
    def to(self, device):
        return BatchEncoding({k: v.to(device) for k, v in self.items()})

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

    @property
    def device(self):
        # ModuleUtilsMixin.device: the device of the first parameter
        return next(self.parameters()).device

    def _get_initial_cache_position(self, input_ids):
        return torch.ones_like(input_ids[0, :], dtype=torch.int64).cumsum(0) - 1

    def forward(self, input_ids, attention_mask=None, cache_position=None):
        return self.lm_head(self.model(input_ids, cache_position))

    @torch.no_grad()
    def generate(self, input_ids, attention_mask=None, max_new_tokens=1):
        # stand-in: generate() reduced to the prefill step
        cache_position = self._get_initial_cache_position(input_ids)
        logits = self(input_ids, attention_mask=attention_mask, cache_position=cache_position)
        return logits.argmax(-1)

def _install_offload_embedding_hooks(embed_tokens, return_device):
    # unsloth: the lookup runs on the weight's device, the hidden states go back to the decoder device
    def pre_hook(module, args):
        return (args[0].to(module.weight.device),)
    def post_hook(module, args, output):
        return output.to(return_device)
    embed_tokens.register_forward_pre_hook(pre_hook)
    embed_tokens.register_forward_hook(post_hook)

# FastLanguageModel.from_pretrained(..., offload_embedding=True): the model lands on cuda:0 but for the
# embedding, which is kept in RAM
model = LlamaForCausalLM()
model.model.layers.to("cuda:0")
model.model.norm.to("cuda:0")
model.model.rotary_emb.to("cuda:0")
model.lm_head.to("cuda:0")
_install_offload_embedding_hooks(model.model.embed_tokens, return_device=torch.device("cuda:0"))

inputs = BatchEncoding(input_ids=torch.randint(0, 128, (1, 9)),
                       attention_mask=torch.ones(1, 9, dtype=torch.long)).to(model.device)
'''
CELL = '''
outputs = model.generate(**inputs, max_new_tokens=64)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["inputs"]
FIX = "namespace"
REFERENCE_FIX = '''
inputs = inputs.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
