"""Look-alike: PEFT VeRA layers on two GPUs share one `vera_A`/`vera_B` pair; each layer slices it and moves it to its input's device.

Source: https://github.com/huggingface/peft/blob/main/src/peft/tuners/vera/layer.py
VeRA keeps a single frozen random pair of projection matrices in a `BufferDict` shared by every
adapted layer ("we initialize these matrices with the largest required size ... required submatrices
are sliced out from the shared vera_A and vera_B"). Each layer's `update_layer` moves its adapter
entries to its own base layer's device, so with `device_map` over two GPUs the one shared pair ends up
on the device of the last layer adapted. `Linear.forward` therefore does
`sliced_A = vera_A[:, : self.in_features].to(x.device)` (same for `vera_B`), casts `x` to the
float32 `vera_lambda_d` dtype and casts the result back to the input dtype. A buffer on another GPU
than the layer using it, by design; nothing to report.
Stand-ins: peft's `BufferDict`, VeRA `Linear` (forward and `update_layer` device move), a two-block
fp16 model dispatched over cuda:0/cuda:1 with accelerate-style hooks that move each block's input.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn
import torch.nn.functional as F

class BufferDict(nn.Module):
    """peft.tuners._buffer_dict.BufferDict (reduced)."""
    def __init__(self, buffers=None, persistent=False):
        super().__init__()
        self.persistent = persistent
        for k, v in (buffers or {}).items():
            self[k] = v

    def __getitem__(self, key):
        return self._buffers[key]

    def __setitem__(self, key, buffer):
        self.register_buffer(key, buffer, persistent=self.persistent)

    def __contains__(self, key):
        return key in self._buffers

class Linear(nn.Module):
    """peft.tuners.vera.layer.Linear"""
    def __init__(self, base_layer, vera_A, vera_B, adapter_name="default", r=4, d_initial=0.1):
        super().__init__()
        self.base_layer = base_layer
        self.in_features, self.out_features = base_layer.in_features, base_layer.out_features
        self.vera_lambda_b = nn.ParameterDict({adapter_name: nn.Parameter(torch.ones(self.out_features))})
        self.vera_lambda_d = nn.ParameterDict({adapter_name: nn.Parameter(torch.full((r,), d_initial))})
        self.vera_dropout = nn.ModuleDict({adapter_name: nn.Identity()})
        self.vera_A = vera_A            # non trainable references to the shared vera_A/B buffers
        self.vera_B = vera_B
        self.active_adapters = [adapter_name]
        self._move_adapter_to_device_of_base_layer(adapter_name)

    def _move_adapter_to_device_of_base_layer(self, adapter_name):
        device = self.base_layer.weight.device
        for name in ("vera_lambda_b", "vera_lambda_d"):
            getattr(self, name)[adapter_name] = nn.Parameter(getattr(self, name)[adapter_name].data.to(device))
        for name in ("vera_A", "vera_B"):           # other_param_names: the shared buffers move too
            getattr(self, name)[adapter_name] = getattr(self, name)[adapter_name].to(device)

    def forward(self, x, *args, **kwargs):
        previous_dtype = x.dtype
        result = self.base_layer(x, *args, **kwargs)
        for active_adapter in self.active_adapters:
            lambda_d = self.vera_lambda_d[active_adapter]
            lambda_b = self.vera_lambda_b[active_adapter]
            vera_A = self.vera_A[active_adapter]
            vera_B = self.vera_B[active_adapter]
            # required submatrices are sliced out from the shared vera_A and vera_B
            sliced_A = vera_A[:, : self.in_features].to(x.device)
            sliced_B = vera_B[: self.out_features, :].to(x.device)
            dropout = self.vera_dropout[active_adapter]
            x = x.to(lambda_d.dtype)
            result = result + lambda_b * F.linear(lambda_d * F.linear(dropout(x), sliced_A), sliced_B)
        result = result.to(previous_dtype)
        return result

class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.q_proj = nn.Linear(d, d, bias=False)
        self.v_proj = nn.Linear(d, d, bias=False)

    def forward(self, h):
        return h + self.v_proj(h) * torch.sigmoid(self.q_proj(h))

class TinyCausalLM(nn.Module):
    def __init__(self, vocab=100, d=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([Block(d), Block(d)])
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = layer(h)
        return self.lm_head(h)

def _move_inputs_hook(device):                      # accelerate AlignDevicesHook(io_same_device)
    def pre_hook(module, args):
        return tuple(a.to(device) if torch.is_tensor(a) else a for a in args)
    return pre_hook

# from_pretrained(..., torch_dtype=torch.float16, device_map={"embed_tokens": 0, "layers.0": 0, "layers.1": 1, "lm_head": 1})
model = TinyCausalLM().half()
model.embed_tokens.to("cuda:0")
model.layers[0].to("cuda:0")
model.layers[1].to("cuda:1")
model.lm_head.to("cuda:1")
model.layers[1].register_forward_pre_hook(_move_inputs_hook(torch.device("cuda:1")))
model.lm_head.register_forward_pre_hook(_move_inputs_hook(torch.device("cuda:1")))

# get_peft_model(model, VeraConfig(r=4, target_modules=["q_proj", "v_proj"]))
r, d = 4, 32
generator = torch.Generator(device="cpu").manual_seed(0)
vera_A = BufferDict({"default": torch.randn(r, d, generator=generator) / math.sqrt(d)})
vera_B = BufferDict({"default": torch.randn(d, r, generator=generator) / math.sqrt(r)})
for layer in model.layers:
    layer.q_proj = Linear(layer.q_proj, vera_A, vera_B, r=r)
    layer.v_proj = Linear(layer.v_proj, vera_A, vera_B, r=r)

input_ids = torch.randint(0, 100, (2, 10)).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    logits = model(input_ids)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
