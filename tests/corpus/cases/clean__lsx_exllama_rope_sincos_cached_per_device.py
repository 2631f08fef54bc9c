"""exllama: a model split over two GPUs keeps one copy of the rotary sin/cos tables per device and each layer takes its own.

Source: https://github.com/turboderp/exllama/blob/master/model.py
With `gpu_split`, `ExLlama.__init__` builds the rotary `sin`/`cos` tables once and stores a copy on
every device that holds layers (`self.sincos[device] = (sin.to(device), cos.to(device))`); each
decoder layer reads the pair for its own device, and the hidden state is moved between cards at the
layer boundary. Look-alike: a dict of the same tensors on several GPUs, held outside any module, that runs.
Stand-in: a two-layer model split cuda:0 / cuda:1 with the per-device tables.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)

class ExLlamaDecoderLayer(nn.Module):
    def __init__(self, d, device):
        super().__init__()
        self.device = device
        self.q_proj = nn.Linear(d, d, bias=False)
        self.o_proj = nn.Linear(d, d, bias=False)

    def forward(self, hidden_states, sincos):
        sin, cos = sincos[self.device]
        q = self.q_proj(hidden_states)
        q = q * cos + rotate_half(q) * sin
        return hidden_states + self.o_proj(q)

class ExLlama(nn.Module):
    def __init__(self, vocab=64, d=32, max_seq_len=16, gpu_split=("cuda:0", "cuda:1")):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        inv_freq = 1.0 / (10000 ** (torch.arange(0, d, 2).float() / d))
        freqs = torch.outer(torch.arange(max_seq_len).float(), inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        sin, cos = emb.sin()[None], emb.cos()[None]
        self.devices = list(gpu_split)
        self.layers = nn.ModuleList([ExLlamaDecoderLayer(d, dev) for dev in self.devices])
        self.sincos = {}
        for device in self.devices:
            self.sincos[device] = (sin.to(device), cos.to(device))
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def place(self):
        self.embed_tokens.to(self.devices[0])
        for layer in self.layers:
            layer.to(layer.device)
        self.lm_head.to(self.devices[-1])
        return self

    def forward(self, input_ids):
        hidden_states = self.embed_tokens(input_ids)
        t = input_ids.shape[-1]
        for layer in self.layers:
            hidden_states = hidden_states.to(layer.device)
            sincos = {k: (s[:, :t], c[:, :t]) for k, (s, c) in self.sincos.items()}
            hidden_states = layer(hidden_states, sincos)
        return self.lm_head(hidden_states)

model = ExLlama().place()
input_ids = torch.randint(0, 64, (1, 8)).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    logits = model(input_ids)
print(logits.shape, logits.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
