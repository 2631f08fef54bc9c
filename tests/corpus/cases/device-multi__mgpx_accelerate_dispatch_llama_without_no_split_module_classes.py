"""LLaMA loaded with accelerate's load_checkpoint_and_dispatch(device_map="auto") and no `no_split_module_classes`: a decoder layer is cut between two GPUs and its residual add fails.

Source: https://github.com/huggingface/accelerate/issues/1851
Users loading LLaMA with `init_empty_weights()` + `load_checkpoint_and_dispatch(model, checkpoint,
device_map="auto")` on several GPUs got "Expected all tensors to be on the same device, but found at least
two devices" during the forward. The maintainer's answer: without `no_split_module_classes` the computed
device map splits modules across devices, but those modules include a residual connection; put the
decoder layers in `no_split_module_classes` (`["LlamaDecoderLayer"]`) so each layer stays on one GPU.
Stand-ins: a two-layer Llama, accelerate's auto device map (fill each GPU's budget, recurse into a module
that does not fit unless its class is in `no_split_module_classes`) and dispatch with device-aligning
hooks; checkpoint loading is a no-op.
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

def infer_auto_device_map(model, max_memory, no_split_module_classes=None):
    # stand-in: fill the devices in order; a module that does not fit is split into its children unless
    # its class is listed in no_split_module_classes, in which case it goes whole to the next device
    no_split = set(no_split_module_classes or [])
    devices = list(max_memory)
    budget = dict(max_memory)
    device_map = {}
    state = {"idx": 0}
    def size(m):
        return sum(p.numel() for p in m.parameters())
    def place(name, module):
        s = size(module)
        dev = devices[state["idx"]]
        if s <= budget[dev]:
            device_map[name] = dev
            budget[dev] -= s
            return
        children = list(module.named_children())
        if children and type(module).__name__ not in no_split:
            for cname, child in children:
                place(f"{name}.{cname}" if name else cname, child)
            return
        state["idx"] += 1
        dev = devices[state["idx"]]
        device_map[name] = dev
        budget[dev] -= s
    for name, child in model.named_children():
        place(name, child)
    return device_map

def dispatch_model(model, device_map):
    # stand-in for accelerate.dispatch_model: each entry is moved to its GPU and gets an
    # AlignDevicesHook-like pre-hook that moves the module's inputs to that GPU
    for name, device in device_map.items():
        module = model.get_submodule(name)
        module.to(device)
        def pre_hook(mod, args, kwargs, device=device):
            return send_to_device(args, device), send_to_device(kwargs, device)
        module.register_forward_pre_hook(pre_hook, with_kwargs=True)
    model.hf_device_map = dict(device_map)
    return model

def load_checkpoint_and_dispatch(model, checkpoint, device_map=None, max_memory=None, no_split_module_classes=None):
    # stand-in: loading the weights is skipped; the "auto" map is computed, then the model dispatched
    if device_map == "auto":
        device_map = infer_auto_device_map(model, max_memory, no_split_module_classes=no_split_module_classes)
    return dispatch_model(model, device_map)

class LlamaRMSNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.eps = eps
    def forward(self, x):
        return self.weight * x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)

class LlamaAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.q_proj = nn.Linear(d, d, bias=False)
        self.k_proj = nn.Linear(d, d, bias=False)
        self.v_proj = nn.Linear(d, d, bias=False)
        self.o_proj = nn.Linear(d, d, bias=False)
    def forward(self, hidden_states):
        q, k, v = self.q_proj(hidden_states), self.k_proj(hidden_states), self.v_proj(hidden_states)
        attn = torch.softmax(q @ k.transpose(-1, -2) / q.shape[-1] ** 0.5, dim=-1)
        return self.o_proj(attn @ v)

class LlamaMLP(nn.Module):
    def __init__(self, d, inter):
        super().__init__()
        self.gate_proj = nn.Linear(d, inter, bias=False)
        self.up_proj = nn.Linear(d, inter, bias=False)
        self.down_proj = nn.Linear(inter, d, bias=False)
        self.act_fn = nn.SiLU()
    def forward(self, x):
        return self.down_proj(self.act_fn(self.gate_proj(x)) * self.up_proj(x))

class LlamaDecoderLayer(nn.Module):
    def __init__(self, d=32, inter=64):
        super().__init__()
        self.input_layernorm = LlamaRMSNorm(d)
        self.self_attn = LlamaAttention(d)
        self.post_attention_layernorm = LlamaRMSNorm(d)
        self.mlp = LlamaMLP(d, inter)
    def forward(self, hidden_states):
        residual = hidden_states
        hidden_states = self.input_layernorm(hidden_states)
        hidden_states = self.self_attn(hidden_states)
        hidden_states = residual + hidden_states
        residual = hidden_states
        hidden_states = self.post_attention_layernorm(hidden_states)
        hidden_states = self.mlp(hidden_states)
        hidden_states = residual + hidden_states
        return hidden_states

class LlamaModel(nn.Module):
    def __init__(self, vocab=128, d=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([LlamaDecoderLayer(d), LlamaDecoderLayer(d)])
        self.norm = LlamaRMSNorm(d)
    def forward(self, input_ids):
        hidden_states = self.embed_tokens(input_ids)
        for decoder_layer in self.layers:
            hidden_states = decoder_layer(hidden_states)
        return self.norm(hidden_states)

class LlamaForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = LlamaModel()
        self.lm_head = nn.Linear(32, 128, bias=False)
    def forward(self, input_ids):
        return self.lm_head(self.model(input_ids))

model = LlamaForCausalLM()          # with init_empty_weights(): LlamaForCausalLM(config)
max_memory = {"cuda:0": 18660, "cuda:1": 30000}     # what each GPU can hold (here in parameters)
model = load_checkpoint_and_dispatch(model, "llama-7b/pytorch_model.bin.index.json", device_map="auto",
                                     max_memory=max_memory)
input_ids = torch.randint(0, 128, (1, 12)).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    logits = model(input_ids)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.model.layers[1]"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('                                     max_memory=max_memory)',
                  '                                     max_memory=max_memory, no_split_module_classes=["LlamaDecoderLayer"])')
CLEAN = False
