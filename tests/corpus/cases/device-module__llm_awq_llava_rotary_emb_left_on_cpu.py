"""AWQ calibration of a LLaVA-LLaMA model: move_embed() moves the embeddings but not the rotary embedding module.

Source: https://github.com/mit-han-lab/llm-awq/pull/322
During the AWQ search the model stays on the CPU and `move_embed(model, "cuda")` moves only what
the first forward needs; for `LlavaLlamaForCausalLM` it moved `model.model.embed_tokens` and the
vision tower but left `model.model.rotary_emb` (whose `inv_freq` buffer computes the position
embeddings) on the CPU, and the calibration forward raised "found at least two devices, cpu and
cuda:0". The PR adds `model.model.rotary_emb.to(device)`. The model is a small LLaMA-shaped
stand-in.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class LlamaRotaryEmbedding(nn.Module):
    def __init__(self, dim=8, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, x, position_ids):
        freqs = position_ids.unsqueeze(-1).float() * self.inv_freq.view(1, 1, -1)
        emb = torch.cat((freqs, freqs), dim=-1)
        return emb.cos(), emb.sin()

class LlamaModel(nn.Module):
    def __init__(self, vocab=64, dim=16, head_dim=8):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.rotary_emb = LlamaRotaryEmbedding(head_dim)
        self.layers = nn.ModuleList([nn.Linear(dim, dim) for _ in range(2)])

    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        position_ids = torch.arange(input_ids.shape[1])[None].to(h.device)
        cos, sin = self.rotary_emb(h, position_ids)
        return h, cos, sin

class LlavaLlamaForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = LlamaModel()
        self.model.vision_tower = nn.Linear(12, 16)
        self.lm_head = nn.Linear(16, 64, bias=False)

def move_embed(model, device):
    if isinstance(model, LlavaLlamaForCausalLM):
        model.model.embed_tokens = model.model.embed_tokens.to(device)
        model.model.vision_tower = model.model.vision_tower.to(device)

model = LlavaLlamaForCausalLM()          # kept on the CPU during the search
move_embed(model, "cuda:0")
samples = torch.randint(0, 64, (2, 10)).to("cuda:0")
'''
CELL = '''
hidden, cos, sin = model.model(samples)   # the calibration forward that captures layer 0's inputs
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.model.rotary_emb"]
FIX = "namespace"
REFERENCE_FIX = '''
model.model.rotary_emb.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
