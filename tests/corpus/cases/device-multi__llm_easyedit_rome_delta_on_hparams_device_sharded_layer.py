"""EasyEdit ROME on a `device_map`-sharded LLM: the edit delta is made on `hparams.device` but the edited layer lives on another GPU.

Source: https://github.com/zjunlp/EasyEdit/pull/681
"Fix sharded-model device handling for hook editors": "Some editors used `hparams.device` as the input,
delta, solve, and writeback device. Under `device_map` or forced sharding, the edited layer can live on a
different GPU, so hook-time tensor additions ... could hit cross-device errors" (the reports #103, #196,
#419: "found at least two devices, cuda:1 and cuda:0"). The fix creates hook deltas on the edited
module's device. Stand-in: a GPT-style model whose blocks are split over cuda:0 / cuda:1 with
accelerate-style input alignment, and ROME's compute_v forward hook adding `delta` at the edit layer.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, h):
        return h + self.mlp(h)

class ShardedGPT(nn.Module):
    def __init__(self, vocab=100, d=32, n_layer=8, split=4):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.h = nn.ModuleList([Block(d) for _ in range(n_layer)])
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.config = SimpleNamespace(n_embd=d)
        self.split = split

    def dispatch(self):                      # what device_map="auto" does over two GPUs
        self.wte.to("cuda:0")
        for i, block in enumerate(self.h):
            block.to("cuda:0" if i < self.split else "cuda:1")
        self.lm_head.to("cuda:1")
        return self

    def forward(self, input_ids):
        h = self.wte(input_ids)
        for block in self.h:
            h = block(h.to(next(block.parameters()).device))    # accelerate's AlignDevicesHook
        return self.lm_head(h.to(self.lm_head.weight.device))

hparams = SimpleNamespace(device=0, layers=[5], layer_module_tmp="h.{}")
model = ShardedGPT().dispatch()
input_tok = torch.randint(0, 100, (1, 7)).to("cuda:0")

def compute_v(model, input_tok, hparams, layer):
    edit_module = model.get_submodule(hparams.layer_module_tmp.format(layer))
    delta = torch.zeros((model.config.n_embd,), requires_grad=True, device=f"cuda:{hparams.device}")

    def edit_output_fn(module, inputs, cur_out):
        return cur_out + delta

    handle = edit_module.register_forward_hook(edit_output_fn)
    try:
        logits = model(input_tok)
    finally:
        handle.remove()
    return logits
'''
CELL = '''
logits = compute_v(model, input_tok, hparams, hparams.layers[0])
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["delta"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('device=f"cuda:{hparams.device}")', 'device=next(edit_module.parameters()).device)')
CLEAN = False
