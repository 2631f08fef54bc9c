"""TransformerLens `generate()` given hand-built CPU tokens for a model that defaulted to CUDA.

Source: https://github.com/TransformerLensOrg/TransformerLens/issues/1508
With a tokenizer-free `HookedTransformer` (algorithmic task), `cfg.device` defaults to "cuda" when a
GPU is visible, while the user's token tensor is made on the CPU. `generate()` moves its `input` to
the model's device, but `input_tokens` was bound to the original CPU tensor first, so the final
`torch.cat((input_tokens, sampled_tokens))` mixes devices: "Expected all tensors to be on the same
device ... (when checking argument in method wrapper_CUDA_cat)". Until the library fix (#1509),
passing tokens already on the model's device avoids it. Stand-in: a one-layer model with the
library's `generate` ordering (greedy sampling only).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn
from dataclasses import dataclass

@dataclass
class HookedTransformerConfig:
    n_layers: int = 1
    d_model: int = 32
    n_ctx: int = 16
    d_vocab: int = 12
    act_fn: str = "relu"
    device: str = "cuda:0"        # defaults to "cuda" when torch.cuda.is_available()

class HookedTransformer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.d_vocab, cfg.d_model)
        self.pos_embed = nn.Embedding(cfg.n_ctx, cfg.d_model)
        self.mlp = nn.Sequential(nn.Linear(cfg.d_model, 4 * cfg.d_model), nn.ReLU(), nn.Linear(4 * cfg.d_model, cfg.d_model))
        self.unembed = nn.Linear(cfg.d_model, cfg.d_vocab)
        self.to(cfg.device)

    def forward(self, tokens):
        pos = torch.arange(tokens.shape[1], device=tokens.device)
        x = self.embed(tokens) + self.pos_embed(pos)
        return self.unembed(x + self.mlp(x))

    @torch.no_grad()
    def generate(self, input, max_new_tokens=4, do_sample=False, verbose=False):
        input_tokens = input if isinstance(input, torch.Tensor) else None
        device = self.cfg.device
        input = input.to(device)
        tokens = input
        sampled = []
        for _ in range(max_new_tokens):
            logits = self.forward(tokens)
            next_tokens = logits.select(1, -1).argmax(dim=-1, keepdim=True)
            sampled.append(next_tokens)
            tokens = torch.cat([tokens, next_tokens], dim=-1)
        sampled_tokens = torch.cat(sampled, dim=-1)
        return torch.cat((input_tokens, sampled_tokens), dim=-1)

cfg = HookedTransformerConfig()
model = HookedTransformer(cfg)
tokens = torch.tensor([[1, 5, 3, 7, 2]])     # a hand-built prompt for the algorithmic task
'''
CELL = '''
out = model.generate(tokens, max_new_tokens=4, do_sample=False, verbose=False)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["tokens"]
FIX = "namespace"
REFERENCE_FIX = '''
tokens = tokens.to(cfg.device)
'''
REFERENCE_EDIT = None
CLEAN = False
