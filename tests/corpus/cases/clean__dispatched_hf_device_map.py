"""A model dispatched across two GPUs with `device_map="auto"`: hooks move activations between them.

Source: https://github.com/huggingface/accelerate/issues/2692
`pipe.model.hf_device_map` shows the transformer blocks split over GPU 0 and GPU 1, and the
model runs (the report is about the text it generates, not about devices): accelerate's hooks
move each block's inputs to that block's device. Stand-in: a GPT-shaped model, blocks placed by
a device map, and forward pre-hooks that align inputs the way accelerate's `AlignDevicesHook`
does.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.ln = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def forward(self, h):
        return h + self.mlp(self.ln(h))

class GPTStandIn(nn.Module):
    def __init__(self, vocab=100, dim=32, n_layer=4):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.h = nn.ModuleList(Block(dim) for _ in range(n_layer))
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids):
        h = self.wte(input_ids)
        for block in self.h:
            h = block(h)
        return self.lm_head(h)

def dispatch_model(model, device_map):
    # like accelerate.dispatch_model: place each module, align its inputs with a pre-hook
    for name, dev in device_map.items():
        module = model.get_submodule(name).to(f"cuda:{dev}")
        target = torch.device(f"cuda:{dev}")
        module.register_forward_pre_hook(
            lambda mod, args, target=target: tuple(a.to(target) for a in args))
    model.hf_device_map = dict(device_map)
    return model

model = dispatch_model(GPTStandIn(), {"wte": 0, "h.0": 0, "h.1": 0, "h.2": 1, "h.3": 1,
                                      "lm_head": 1})
input_ids = torch.randint(0, 100, (1, 12)).to("cuda:0")
'''
CELL = '''
logits = model(input_ids)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
