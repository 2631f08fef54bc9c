"""Outlines multi-sample generation with a model split over two GPUs: each step the KV cache is re-ordered by `ancestors` that live on `model.device`, moved to every cache layer's own GPU.

Source: https://github.com/dottxt-ai/outlines/blob/main/outlines/generate/generator.py
`sequence_generator` calls the model, moves the logits with `logits = logits.to(model.device)`, samples
(`ancestors = torch.arange(next_token_logits.shape[0], device=next_token_logits.device)`), then
`update_token_ids`/`update_attention_masks` do `torch.index_select(..., 0, ancestors)` on `model.device`
and `reorder_kv_cache` walks the transformers legacy cache doing
`torch.index_select(layer, 0, ancestors.to(layer.device))` for every key/value tensor, whatever GPU
that layer sits on. Look-alike: a cuda:0 index tensor applied to cache tensors on cuda:0 and cuda:1; it
runs. Stand-ins: a two-layer LM dispatched over cuda:0/cuda:1 returning a legacy (k, v) cache, the
greedy sampler, and the generator's update helpers (no FSM; two samples of one prompt).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Layer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.kv = nn.Linear(d, 2 * d)
        self.out = nn.Linear(d, d)
    def forward(self, x, past=None):
        k, v = self.kv(x).chunk(2, dim=-1)
        if past is not None:
            k = torch.cat([past[0], k], dim=1)
            v = torch.cat([past[1], v], dim=1)
        att = torch.softmax(x @ k.transpose(1, 2), dim=-1) @ v
        return x + self.out(att), (k, v)

class SplitLM(nn.Module):
    def __init__(self, vocab=40, d=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([Layer(d), Layer(d)])
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def dispatch(self):
        self.embed.to("cuda:0"); self.layers[0].to("cuda:0")
        self.layers[1].to("cuda:1"); self.lm_head.to("cuda:1")
        return self

    @property
    def device(self):
        return next(self.parameters()).device

    def forward(self, input_ids, attention_mask=None, past_key_values=None):
        x = self.embed(input_ids)
        past_key_values = past_key_values or (None, None)
        presents = ()
        for layer, past in zip(self.layers, past_key_values):
            x, present = layer(x.to(layer.kv.weight.device), past)
            presents += (present,)
        return self.lm_head(x), presents

class Transformers:
    def __init__(self, model):
        self.model = model
        self.device = model.device
    def __call__(self, input_ids, attention_mask, past_key_values=None):
        if past_key_values:
            input_ids = input_ids[..., -1].unsqueeze(-1)
        logits, kv_cache = self.model(input_ids, attention_mask, past_key_values)
        return logits[..., -1, :], kv_cache

class GreedySampler:
    def __call__(self, next_token_logits, sequence_weights, _):
        logprobs = torch.nn.functional.log_softmax(next_token_logits, dim=-1)
        next_token_ids = torch.argmax(logprobs, dim=-1, keepdim=True)
        ancestors = torch.arange(next_token_logits.shape[0], device=next_token_logits.device)
        weights = sequence_weights + torch.gather(logprobs, 1, next_token_ids).squeeze()
        return next_token_ids, ancestors, weights

def update_token_ids(token_ids, next_token_ids, ancestors):
    token_ids = torch.index_select(token_ids, 0, ancestors)
    return torch.concatenate([token_ids, next_token_ids], dim=-1)

def update_attention_masks(attention_masks, ancestors):
    attention_masks = torch.index_select(attention_masks, 0, ancestors)
    return torch.concatenate(
        [attention_masks, torch.ones(attention_masks.shape[:-1] + (1,), device=attention_masks.device)],
        axis=-1,
    )

def reorder_kv_cache(kv_cache, ancestors):
    if kv_cache is None:
        return None
    new_kv_cache = tuple()
    for cache_item in kv_cache:
        new_cache_item = tuple()
        for layer in cache_item:
            layer = torch.index_select(layer, 0, ancestors.to(layer.device))
            new_cache_item += (layer,)
        new_kv_cache += (new_cache_item,)
    return new_kv_cache

def sequence_generator(model, sampler, token_ids, sequence_weights, attention_masks, rng, max_tokens):
    kv_cache = None
    for _ in range(max_tokens):
        logits, kv_cache = model(token_ids, attention_masks, kv_cache)
        logits = logits.to(model.device)
        next_token_ids, ancestors, sequence_weights = sampler(logits, sequence_weights, rng)
        token_ids = update_token_ids(token_ids, next_token_ids, ancestors)
        attention_masks = update_attention_masks(attention_masks, ancestors)
        kv_cache = reorder_kv_cache(kv_cache, ancestors)
    return token_ids, sequence_weights, kv_cache

model = Transformers(SplitLM().dispatch())     # outlines.models.transformers("...", device="auto")
num_samples = 2
prompt_token_ids = torch.randint(0, 40, (1, 6)).to(model.device).repeat_interleave(num_samples, dim=0)
attention_masks = torch.ones_like(prompt_token_ids)
weights = torch.zeros(num_samples, dtype=torch.float, device=prompt_token_ids.device)
'''
CELL = '''
with torch.no_grad():
    token_ids, weights, kv_cache = sequence_generator(model, GreedySampler(), prompt_token_ids, weights,
                                                      attention_masks, None, max_tokens=4)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
