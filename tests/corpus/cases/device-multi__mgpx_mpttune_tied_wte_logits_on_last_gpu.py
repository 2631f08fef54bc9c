"""mpttune on two A6000s: MPT's tied output projection multiplies last-GPU hidden states by the input embedding left on the first GPU.

Source: https://github.com/rmihaylov/mpttune/pull/8
Fine-tuning MPT with mpttune on two GPUs (the model dispatched over both) failed at
`logits = F.linear(hidden_states, self.transformer.wte.weight)` in `MPTForCausalLM.forward` with
"Expected all tensors to be on the same device, but found at least two devices, cuda:1 and cuda:0! (when
checking argument for argument mat2 in method wrapper_CUDA_mm)": MPT ties the output layer to the
token embedding `transformer.wte`, which the device map keeps on the first GPU, while the last blocks
and `norm_f` run on the second. The merged fix (following an LLM-Foundry commit) moves the hidden states
to `self.transformer.wte.weight.device` before the projection. Stand-ins: a two-block MPT and accelerate's
dispatch_model with device-aligning hooks.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

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

class MPTBlock(nn.Module):
    def __init__(self, d_model):
        super().__init__()
        self.norm_1 = nn.LayerNorm(d_model)
        self.attn = nn.Linear(d_model, d_model, bias=False)
        self.norm_2 = nn.LayerNorm(d_model)
        self.ffn = nn.Sequential(nn.Linear(d_model, 4 * d_model, bias=False), nn.GELU(),
                                 nn.Linear(4 * d_model, d_model, bias=False))
    def forward(self, x):
        x = x + self.attn(self.norm_1(x))
        return x + self.ffn(self.norm_2(x))

class MPTModel(nn.Module):
    def __init__(self, vocab_size=128, d_model=32, n_layers=2):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, d_model)
        self.blocks = nn.ModuleList([MPTBlock(d_model) for _ in range(n_layers)])
        self.norm_f = nn.LayerNorm(d_model)
    def forward(self, input_ids):
        x = self.wte(input_ids)
        for block in self.blocks:
            x = block(x)
        return (self.norm_f(x),)

class MPTForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.transformer = MPTModel()
        self.logit_scale = None
    def forward(self, input_ids, labels=None):
        outputs = self.transformer(input_ids=input_ids)
        hidden_states = outputs[0]
        logits = F.linear(hidden_states, self.transformer.wte.weight)
        loss = None
        if labels is not None:
            labels = torch.roll(labels, shifts=-1)
            labels[:, -1] = -100
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), labels.to(logits.device).view(-1))
        return loss, logits

model = MPTForCausalLM()
device_map = {"transformer.wte": "cuda:0", "transformer.blocks.0": "cuda:0",
              "transformer.blocks.1": "cuda:1", "transformer.norm_f": "cuda:1"}
model = dispatch_model(model, device_map)
input_ids = torch.randint(0, 128, (2, 16)).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    loss, logits = model(input_ids)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.transformer.wte"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("logits = F.linear(hidden_states, self.transformer.wte.weight)",
                  "logits = F.linear(hidden_states.to(self.transformer.wte.weight.device), self.transformer.wte.weight)")
CLEAN = False
