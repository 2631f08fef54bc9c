"""Outlines structured generation with an ExLlamaV2 model: `bias_logits` builds a float32 `-inf` tensor and index-puts the model's half-precision logits into it.

Source: https://github.com/dottxt-ai/outlines/issues/583
Closed by commit 0cd96087 "Give `biased_logits` the same `dtype` as `logits`": "Exllama generates logits
in torch Half-dtype, but Outlines requires the Float-dtype"; `outlines/generate/generator.py`'s
`bias_logits` did `biased_logits = torch.full(logits.shape, -math.inf, device=logits.device)` (default
float32) and then `biased_logits[i, ids] = logits[i, ids]`, which fails with "Index put requires the
source and destination dtypes match, got Float for the destination and Half for the source". The fix
creates the mask with `torch.full_like(logits, -math.inf, device=logits.device)`. Stand-ins: the
`ExLlamaV2Model` wrapper returning fp16 last-token logits (a tiny fp16 LM instead of exllamav2), a
choice-like guide, and outlines 0.0.2x's `sequence_generator` loop with the greedy sampler (CPU only).
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import math
import torch
from torch import nn

class TinyExl2(nn.Module):
    """fp16 weights, fp16 logits, like an ExLlamaV2 model."""
    def __init__(self, vocab=20, d=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, d)
        self.head = nn.Linear(d, vocab, bias=False)
    def forward(self, input_ids, cache=None):
        return self.head(torch.tanh(self.embed(input_ids)))

class ExLlamaV2Model:
    """Stand-in for outlines.models.exllamav2.ExLlamaV2Model."""
    def __init__(self, model):
        self.model = model
    def forward(self, input_ids, *_):
        return self.model.forward(input_ids)
    def __call__(self, input_ids, *_):
        logits = self.forward(input_ids)
        next_token_logits = logits[..., -1, :]
        return next_token_logits, None

class ChoiceGuide:
    """Allows the token sequences of a few choices, then only EOS (token 0)."""
    def __init__(self, choices):
        self.choices = choices
    def allowed_token_ids(self, state):
        if state >= max(len(c) for c in self.choices):
            return [0]
        return sorted({c[state] for c in self.choices if len(c) > state} | ({0} if state > 0 else set()))
    def next_state(self, state, token_id):
        return -1 if token_id == 0 else state + 1
    def is_final_state(self, state):
        return state == -1

def bias_logits(logits, allowed_token_ids):
    biased_logits = torch.full(logits.shape, -math.inf, device=logits.device)
    for i, ids in enumerate(allowed_token_ids):
        biased_logits[i, ids] = logits[i, ids]
    return biased_logits

class GreedySampler:
    def __call__(self, next_token_logits, sequence_weights, _):
        logprobs = torch.nn.functional.log_softmax(next_token_logits, dim=-1)
        next_token_ids = torch.argmax(logprobs, dim=-1, keepdim=True)
        ancestors = torch.arange(next_token_logits.shape[0])
        weights = sequence_weights + torch.gather(logprobs, 1, next_token_ids).squeeze()
        return next_token_ids, ancestors, weights

def sequence_generator(token_generator, fsms, token_ids, sequence_weights, attention_masks, fsm_states, rng=None):
    kv_cache = None
    while True:
        logits, kv_cache = token_generator(token_ids, attention_masks, kv_cache)
        allowed_tokens = [fsm.allowed_token_ids(state) for fsm, state in zip(fsms, fsm_states)]
        biased_logits = bias_logits(logits, allowed_tokens)
        next_token_ids, ancestors, sequence_weights = GreedySampler()(biased_logits, sequence_weights, rng)
        token_ids = torch.cat([torch.index_select(token_ids, 0, ancestors), next_token_ids], dim=-1)
        fsm_states = [fsm.next_state(s, int(t[0])) for fsm, s, t in zip(fsms, fsm_states, next_token_ids)]
        if all(fsm.is_final_state(s) for fsm, s in zip(fsms, fsm_states)) or token_ids.shape[1] > 20:
            return token_ids, sequence_weights

model = ExLlamaV2Model(TinyExl2().half())          # outlines.models.exl2("TheBloke/...-GPTQ", device="cuda")
guide = ChoiceGuide([[5, 6], [7, 8, 9]])          # outlines.generate.choice(model, ["Positive", "Negative"])
prompt_ids = torch.tensor([[3, 11, 4, 2]])
'''
CELL = '''
token_ids, weights = sequence_generator(model, [guide], prompt_ids, torch.zeros(1),
                                        torch.ones_like(prompt_ids), [0])
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["bias_logits"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("biased_logits = torch.full(logits.shape, -math.inf, device=logits.device)",
                  "biased_logits = torch.full_like(logits, -math.inf, device=logits.device)")
CLEAN = False
