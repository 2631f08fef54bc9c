"""Gemma4 with CPU offload: the decoder layer's `layer_scalar` buffer stays on the CPU while the layer computes on cuda.

Source: https://github.com/huggingface/transformers/issues/45482
"Gemma4 26B-A4B: cross-device errors with CPU offload" (accelerate device_map overflowing to RAM,
BnB INT8 + LoRA). Among the reported failures, P7: "`Gemma4DecoderLayer` applies `layer_scalar` (a
float scalar or 1-element tensor) to the output. When the layer is on CUDA but `layer_scalar` is on
CPU, this raises a device mismatch. Fix: `.to(hidden_states.device)` before multiplication." (the
same `.to(out.device)` other Gemma4 ports use). Stand-in: one Gemma4-style decoder layer whose
sub-modules were placed on cuda:0 by the offload hooks while its own 1-element buffer was not.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class Gemma4RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.zeros(dim))

    def forward(self, x):
        x = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
        return x * (1.0 + self.weight)

class Gemma4MLP(nn.Module):
    def __init__(self, hidden, inter):
        super().__init__()
        self.gate_proj = nn.Linear(hidden, inter, bias=False)
        self.up_proj = nn.Linear(hidden, inter, bias=False)
        self.down_proj = nn.Linear(inter, hidden, bias=False)

    def forward(self, x):
        return self.down_proj(F.gelu(self.gate_proj(x), approximate="tanh") * self.up_proj(x))

class Gemma4DecoderLayer(nn.Module):
    def __init__(self, hidden=64, inter=128):
        super().__init__()
        self.self_attn = nn.Linear(hidden, hidden, bias=False)
        self.mlp = Gemma4MLP(hidden, inter)
        self.input_layernorm = Gemma4RMSNorm(hidden)
        self.post_attention_layernorm = Gemma4RMSNorm(hidden)
        self.pre_feedforward_layernorm = Gemma4RMSNorm(hidden)
        self.post_feedforward_layernorm = Gemma4RMSNorm(hidden)
        self.register_buffer("layer_scalar", torch.ones(1))

    def forward(self, hidden_states):
        residual = hidden_states
        hidden_states = self.post_attention_layernorm(self.self_attn(self.input_layernorm(hidden_states)))
        hidden_states = residual + hidden_states
        residual = hidden_states
        hidden_states = self.post_feedforward_layernorm(self.mlp(self.pre_feedforward_layernorm(hidden_states)))
        hidden_states = residual + hidden_states
        return hidden_states * self.layer_scalar

class Gemma4TextModel(nn.Module):
    def __init__(self, vocab=100, hidden=64):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.layer = Gemma4DecoderLayer(hidden)
        self.norm = Gemma4RMSNorm(hidden)

    def forward(self, input_ids):
        return self.norm(self.layer(self.embed_tokens(input_ids)))

model = Gemma4TextModel()
# device_map with CPU offload: the hooks put each sub-module's weights on the execution device,
# the layer's own buffer is left where it was loaded
model.embed_tokens.to("cuda:0")
model.norm.to("cuda:0")
for child in model.layer.children():
    child.to("cuda:0")
input_ids = torch.randint(0, 100, (1, 9)).to("cuda:0")
'''
CELL = '''
hidden = model(input_ids)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.layer.layer_scalar"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return hidden_states * self.layer_scalar",
                  "return hidden_states * self.layer_scalar.to(hidden_states.device)")
CLEAN = False
