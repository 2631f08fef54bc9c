"""`init_empty_weights()` model: parameters on meta, non-persistent buffers on the CPU, by design.

Source: https://github.com/huggingface/transformers/issues/34234
accelerate's `init_empty_weights` (without `include_buffers`) puts parameters on the meta device
and leaves buffers where they are created, because non-persistent buffers such as the rotary
`inv_freq` are not in the checkpoint that `load_checkpoint_and_dispatch` loads next. The
maintainers confirm the layout is intended. Stand-in: our own context manager with that behaviour
and a LLaMA-shaped model; the cell sizes the model for a device map, as the user does next.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import contextlib
import torch
from torch import nn

@contextlib.contextmanager
def init_empty_weights():
    # parameters are created on meta; buffers stay where they are made (accelerate's default)
    original = nn.Module.register_parameter

    def register_parameter(module, name, param):
        original(module, name, param)
        if param is not None:
            empty = module._parameters[name].to("meta")
            module._parameters[name] = nn.Parameter(empty, requires_grad=param.requires_grad)

    nn.Module.register_parameter = register_parameter
    try:
        yield
    finally:
        nn.Module.register_parameter = original

class RotaryEmbedding(nn.Module):
    def __init__(self, dim, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

class DecoderLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.self_attn = nn.Linear(dim, 3 * dim, bias=False)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.SiLU(), nn.Linear(4 * dim, dim))

class LlamaForCausalLM(nn.Module):
    def __init__(self, vocab=128, dim=32, layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(DecoderLayer(dim) for _ in range(layers))
        self.rotary_emb = RotaryEmbedding(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

with init_empty_weights():
    model = LlamaForCausalLM()
'''
CELL = '''
sizes = {name: p.numel() * p.element_size() for name, p in model.named_parameters()}
total_bytes = sum(sizes.values())
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
