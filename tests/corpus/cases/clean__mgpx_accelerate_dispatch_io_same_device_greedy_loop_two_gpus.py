"""Look-alike: a causal LM dispatched over two GPUs ends on cuda:1, yet a hand-written greedy loop concatenates the next token to cuda:0 `input_ids`: the top-level hook brings the logits back to the input's device.

Source: https://github.com/huggingface/accelerate/blob/v1.0.0/src/accelerate/hooks.py
`dispatch_model` calls `attach_align_device_hook_on_blocks`, which gives every mapped block an
`AlignDevicesHook(execution_device=...)` that sends its inputs to its GPU, and gives the root module
(`module_name == ""`) `io_same_device=True`: `pre_forward` records the input's device and `post_forward`
sends the output back there. So `logits` computed by an `lm_head` on cuda:1 come back on cuda:0, and
`torch.cat([input_ids, next_token], dim=-1)` sees one device. Stand-ins: a two-layer causal LM and the
hooks in a few lines (forward pre/post hooks instead of accelerate's wrapped forward).
"""

SIM = "fake_cuda"
FAMILY = "clean"
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

class AlignDevicesHook:
    def __init__(self, execution_device=None, io_same_device=False):
        self.execution_device = execution_device
        self.io_same_device = io_same_device
        self.input_device = None
    def pre_forward(self, module, args, kwargs):
        if self.io_same_device:
            self.input_device = next(t.device for t in list(args) + list(kwargs.values()) if isinstance(t, torch.Tensor))
        return send_to_device(args, self.execution_device), send_to_device(kwargs, self.execution_device)
    def post_forward(self, module, args, kwargs, output):
        if self.io_same_device and self.input_device is not None:
            output = send_to_device(output, self.input_device)
        return output

def add_hook_to_module(module, hook):
    module._hf_hook = hook
    module.register_forward_pre_hook(hook.pre_forward, with_kwargs=True)
    module.register_forward_hook(hook.post_forward, with_kwargs=True)

def dispatch_model(model, device_map):
    main_device = [d for d in device_map.values() if d not in ("cpu", "disk")][0]
    for name, device in device_map.items():
        model.get_submodule(name).to(device)
        add_hook_to_module(model.get_submodule(name), AlignDevicesHook(execution_device=device))
    add_hook_to_module(model, AlignDevicesHook(execution_device=main_device, io_same_device=True))
    model.hf_device_map = dict(device_map)
    return model

class DecoderLayer(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
    def forward(self, h):
        return h + self.mlp(self.norm(h))

class TinyCausalLM(nn.Module):
    def __init__(self, vocab=100, d=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([DecoderLayer(d), DecoderLayer(d)])
        self.norm = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = layer(h)
        return self.lm_head(self.norm(h))

model = dispatch_model(TinyCausalLM(), {"embed_tokens": "cuda:0", "layers.0": "cuda:0",
                                        "layers.1": "cuda:1", "norm": "cuda:1", "lm_head": "cuda:1"})
input_ids = torch.randint(0, 100, (1, 8)).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    for _ in range(3):
        logits = model(input_ids)
        next_token = logits[:, -1, :].argmax(dim=-1, keepdim=True)
        input_ids = torch.cat([input_ids, next_token], dim=-1)
print(input_ids.shape, logits.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
