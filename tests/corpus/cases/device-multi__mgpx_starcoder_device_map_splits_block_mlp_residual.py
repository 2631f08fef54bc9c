"""StarCoder dispatched over two GPUs with a hand-written device_map that cuts one block in half: the block's residual add sees cuda:0 and cuda:1.

Source: https://github.com/bigcode-project/starcoder/issues/29
The model did not fit one GPU, so the user dispatched it with a device_map in which block
`transformer.h.26` is split: `ln_1`, `attn`, `ln_2`, `mlp.c_fc` on GPU 0 and `mlp.c_proj` (and the later
blocks) on GPU 1. Generation fails with "Expected all tensors to be on the same device ... cuda:0 and
cuda:1!": the hooks move inputs to each mapped submodule, but the block's own
`residual + feed_forward_hidden_states` adds c_proj's cuda:1 output to a cuda:0 residual. A block must
not be split (`no_split_module_classes=["GPTBigCodeBlock"]`, i.e. the whole block on one GPU).
Stand-ins: a two-block GPTBigCode-shaped model, accelerate's dispatch_model with device-aligning hooks.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

def send_to_device(obj, device):
    if isinstance(obj, torch.Tensor):
        return obj.to(device)
    if isinstance(obj, (list, tuple)):
        return type(obj)(send_to_device(o, device) for o in obj)
    if isinstance(obj, dict):
        return {k: send_to_device(v, device) for k, v in obj.items()}
    return obj

def dispatch_model(model, device_map):
    # stand-in for accelerate.dispatch_model: each entry is moved to its GPU and gets an
    # AlignDevicesHook-like pre-hook that moves the module's inputs to that GPU
    for name, device in device_map.items():
        module = model.get_submodule(name) if name else model
        module.to(device)
        def pre_hook(mod, args, kwargs, device=device):
            return send_to_device(args, device), send_to_device(kwargs, device)
        module.register_forward_pre_hook(pre_hook, with_kwargs=True)
    model.hf_device_map = dict(device_map)
    return model

class GPTBigCodeMLP(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.c_fc = nn.Linear(d, 4 * d)
        self.c_proj = nn.Linear(4 * d, d)
        self.act = nn.GELU()
    def forward(self, hidden_states):
        return self.c_proj(self.act(self.c_fc(hidden_states)))

class GPTBigCodeBlock(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ln_1 = nn.LayerNorm(d)
        self.attn = nn.Linear(d, d)
        self.ln_2 = nn.LayerNorm(d)
        self.mlp = GPTBigCodeMLP(d)
    def forward(self, hidden_states):
        residual = hidden_states
        hidden_states = self.attn(self.ln_1(hidden_states)) + residual
        residual = hidden_states
        feed_forward_hidden_states = self.mlp(self.ln_2(hidden_states))
        return residual + feed_forward_hidden_states

class Transformer(nn.Module):
    def __init__(self, vocab=100, d=32, n_layer=2):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.h = nn.ModuleList([GPTBigCodeBlock(d) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(d)
    def forward(self, input_ids):
        h = self.wte(input_ids)
        for block in self.h:
            h = block(h)
        return self.ln_f(h)

class GPTBigCodeForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.transformer = Transformer()
        self.lm_head = nn.Linear(32, 100, bias=False)
    def forward(self, input_ids):
        return self.lm_head(self.transformer(input_ids))

model = GPTBigCodeForCausalLM()
device_map = {"transformer.wte": "cuda:0", "transformer.h.0": "cuda:0",
              "transformer.h.1.ln_1": "cuda:0", "transformer.h.1.attn": "cuda:0",
              "transformer.h.1.ln_2": "cuda:0", "transformer.h.1.mlp.c_fc": "cuda:0",
              "transformer.h.1.mlp.c_proj": "cuda:1", "transformer.h.1.mlp.act": "cuda:1",
              "transformer.ln_f": "cuda:1", "lm_head": "cuda:1"}
model = dispatch_model(model, device_map)
input_ids = torch.randint(0, 100, (1, 12)).to("cuda:0")
'''
CELL = '''
logits = model(input_ids)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.transformer.h[1].mlp.c_proj"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('"transformer.h.1.mlp.c_proj": "cuda:1", "transformer.h.1.mlp.act": "cuda:1"',
                  '"transformer.h.1.mlp.c_proj": "cuda:0", "transformer.h.1.mlp.act": "cuda:0"')
CLEAN = False
