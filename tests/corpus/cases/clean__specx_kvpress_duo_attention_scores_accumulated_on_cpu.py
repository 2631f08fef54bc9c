"""kvpress DuoAttention on-the-fly head scoring: `position_ids` and the score table live on the CPU, the per-layer attention runs on the model's GPU.

Source: https://github.com/NVIDIA/kvpress/blob/main/kvpress/presses/duo_attention_press.py
`duo_attention_on_the_fly(model, num_samples, q_len)` creates `position_ids = torch.arange(q_len).unsqueeze(0)`
and `scores = torch.zeros((num_hidden_layers, num_key_value_heads))` on the CPU, runs the model on
`model.device`, applies RoPE with `model.model.rotary_emb(h, position_ids.to(h.device))`, and adds each
layer's result with `scores[layer_idx] += s.cpu() / num_samples`. Look-alike: a CPU accumulator and
CPU position ids around cuda activations, all moved explicitly; it runs.
Stand-ins: a two-layer Llama-like model that returns its hidden states, Llama's rotary embedding and
`apply_rotary_pos_emb`, and the scoring loop with pre-tokenized inputs (no dataset/tokenizer; the
final `.numpy()` left out).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)

def apply_rotary_pos_emb(q, k, cos, sin, unsqueeze_dim=1):
    cos, sin = cos.unsqueeze(unsqueeze_dim), sin.unsqueeze(unsqueeze_dim)
    return (q * cos) + (rotate_half(q) * sin), (k * cos) + (rotate_half(k) * sin)

class LlamaRotaryEmbedding(nn.Module):
    def __init__(self, dim, base=10000.0):
        super().__init__()
        self.register_buffer("inv_freq", 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim)), persistent=False)

    def forward(self, x, position_ids):
        inv_freq_expanded = self.inv_freq[None, :, None].float().expand(position_ids.shape[0], -1, 1)
        position_ids_expanded = position_ids[:, None, :].float()
        freqs = (inv_freq_expanded @ position_ids_expanded).transpose(1, 2)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos().to(x.dtype), emb.sin().to(x.dtype)

class LlamaAttention(nn.Module):
    def __init__(self, hidden=32, heads=4, kv_heads=2):
        super().__init__()
        self.head_dim = hidden // heads
        self.q_proj = nn.Linear(hidden, heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(hidden, kv_heads * self.head_dim, bias=False)

class LlamaDecoderLayer(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.input_layernorm = nn.LayerNorm(hidden)
        self.self_attn = LlamaAttention(hidden)
        self.mlp = nn.Linear(hidden, hidden)

    def forward(self, h):
        return h + self.mlp(self.input_layernorm(h))

class LlamaModel(nn.Module):
    def __init__(self, vocab=100, hidden=32, n_layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.layers = nn.ModuleList([LlamaDecoderLayer(hidden) for _ in range(n_layers)])
        self.rotary_emb = LlamaRotaryEmbedding(hidden // 4)

class LlamaForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.config = SimpleNamespace(num_attention_heads=4, num_key_value_heads=2, num_hidden_layers=2)
        self.model = LlamaModel()

    @property
    def device(self):
        return next(self.parameters()).device

    def forward(self, input_ids, output_hidden_states=True):
        h = self.model.embed_tokens(input_ids)
        hidden_states = [h]
        for layer in self.model.layers:
            h = layer(h)
            hidden_states.append(h)
        return SimpleNamespace(hidden_states=tuple(hidden_states))

def duo_attention_on_the_fly(model, tokenized_texts, q_len):
    num_samples = len(tokenized_texts)
    num_heads = model.config.num_attention_heads
    num_key_value_heads = model.config.num_key_value_heads
    num_key_value_groups = num_heads // num_key_value_heads
    position_ids = torch.arange(q_len).unsqueeze(0)
    scores = torch.zeros((model.config.num_hidden_layers, num_key_value_heads))
    for input_ids in tokenized_texts:
        with torch.no_grad():
            inputs = {"input_ids": input_ids.to(model.device)}
            hidden_states = list(model(**inputs, output_hidden_states=True).hidden_states[:-1])
            for layer_idx, h in enumerate(hidden_states):
                module = model.model.layers[layer_idx]
                d = module.self_attn.head_dim
                h = module.input_layernorm(h)
                q = module.self_attn.q_proj(h)
                q = q.view(1, q.shape[1], -1, d)
                q = q.mean(dim=1, keepdim=True)
                q = q.repeat(1, q_len, 1, 1).transpose(1, 2)
                k = module.self_attn.k_proj(h)
                k = k.view(1, k.shape[1], -1, d)
                k = k.mean(dim=1, keepdim=True)
                k = k.repeat(1, q_len, 1, 1).transpose(1, 2)
                cos, sin = model.model.rotary_emb(h, position_ids.to(h.device))
                q, k = apply_rotary_pos_emb(q, k, cos, sin)
                k = k.repeat_interleave(num_key_value_groups, dim=1)
                attn_weights = torch.matmul(q[:, :, -1:, :], k.transpose(2, 3)) / (d ** 0.5)
                attn_weights = attn_weights.softmax(dim=-1, dtype=torch.float32).squeeze()
                s = torch.cumsum(attn_weights, dim=1).mean(1)
                s = s.view(-1, num_key_value_groups).mean(1)
                scores[layer_idx] += s.cpu() / num_samples
    return scores

model = LlamaForCausalLM().to("cuda:0").eval()
tokenized_texts = [torch.randint(0, 100, (1, 20)) for _ in range(2)]   # tokenizer(text, return_tensors="pt")
'''
CELL = '''
scores = duo_attention_on_the_fly(model, tokenized_texts, q_len=16)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
