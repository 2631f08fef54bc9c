"""Outlines text generation with a transformers model spread over two GPUs: the next-token logits come from an lm_head on cuda:1 while the sequence weights live on `model.device` (cuda:0), and the sampler adds them.

Source: https://github.com/dottxt-ai/outlines/issues/909
Closed by commit 3f6e8358 "Fixed issue #909 where the RuntimeError was occurring due to tensors being on
different devices": in `outlines/generate/generator.py`, `sequence_generator` passes the model's
`next_token_logits` straight to the sampler, whose `GreedySampler` computes `weights = sequence_weights +
torch.gather(logprobs, 1, next_token_ids).squeeze()`; `SequenceGenerator` made `sequence_weights` (and
the prompt ids) on `model.device`, the device of the first parameters, but with `device_map="auto"` the
logits come out on the lm_head's GPU. The fix adds `logits = logits.to(model.device)` right after the
model call. Stand-ins: the `Transformers` wrapper (`device = model.device`, last-token logits), the
greedy sampler and `update_token_ids`/`update_attention_masks` of outlines 0.0.4x, and
`sequence_generator` without the FSM/biasing steps (plain text generation, fixed number of tokens).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class SplitLM(nn.Module):
    """A causal LM loaded with device_map="auto": embeddings on cuda:0, last block and lm_head on cuda:1."""
    def __init__(self, vocab=40, d=16):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.block0 = nn.Linear(d, d)
        self.block1 = nn.Linear(d, d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def dispatch(self):
        self.embed_tokens.to("cuda:0"); self.block0.to("cuda:0")
        self.block1.to("cuda:1"); self.lm_head.to("cuda:1")
        return self

    @property
    def device(self):
        return next(self.parameters()).device

    def forward(self, input_ids, attention_mask=None, past_key_values=None):
        h = torch.tanh(self.block0(self.embed_tokens(input_ids)))
        h = torch.tanh(self.block1(h.to("cuda:1")))
        return self.lm_head(h), None

class Transformers:
    """Stand-in for outlines.models.transformers.Transformers."""
    def __init__(self, model):
        self.model = model
        self.device = model.device

    def __call__(self, input_ids, attention_mask, past_key_values=None):
        logits, kv_cache = self.model(input_ids, attention_mask, past_key_values)
        next_token_logits = logits[..., -1, :]
        return next_token_logits, kv_cache

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

def sequence_generator(model, sampler, token_ids, sequence_weights, attention_masks, rng, max_tokens):
    kv_cache = None
    for _ in range(max_tokens):
        logits, kv_cache = model(token_ids, attention_masks, kv_cache)
        next_token_ids, ancestors, sequence_weights = sampler(logits, sequence_weights, rng)
        token_ids = update_token_ids(token_ids, next_token_ids, ancestors)
        attention_masks = update_attention_masks(attention_masks, ancestors)
        yield token_ids, sequence_weights

class SequenceGenerator:
    def __init__(self, model, sampler, device):
        self.model = model
        self.sampler = sampler
        self.device = device

    def __call__(self, prompt_token_ids, max_tokens=5):
        attention_masks = torch.ones_like(prompt_token_ids)            # tokenizer.encode(prompts)
        prompt_token_ids = prompt_token_ids.to(self.device)
        attention_masks = attention_masks.to(self.device)
        weights = torch.zeros(prompt_token_ids.shape[0], dtype=torch.float, device=self.device)
        states = sequence_generator(self.model, self.sampler, prompt_token_ids, weights,
                                    attention_masks, None, max_tokens)
        *_, last = states
        return last

model = Transformers(SplitLM().dispatch())       # outlines.models.transformers("mistralai/...", device="auto")
generator = SequenceGenerator(model, GreedySampler(), model.device)   # outlines.generate.text(model)
prompt_token_ids = torch.randint(0, 40, (1, 7))
'''
CELL = '''
with torch.no_grad():
    token_ids, weights = generator(prompt_token_ids, max_tokens=5)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["sequence_generator"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        logits, kv_cache = model(token_ids, attention_masks, kv_cache)
""", """        logits, kv_cache = model(token_ids, attention_masks, kv_cache)
        logits = logits.to(model.device)
""")
CLEAN = False
