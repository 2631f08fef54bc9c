"""Look-alike: stable-audio-tools conditioning with Python-float `seconds_start`/`seconds_total` on a CUDA model.

Source: https://github.com/Stability-AI/stable-audio-tools/blob/main/stable_audio_tools/models/conditioners.py (`NumberConditioner`, `MultiConditioner`)
The README's text-to-audio example passes `conditioning = [{"prompt": ..., "seconds_start": 0,
"seconds_total": 30}]` (plain Python numbers, no device) to a model on CUDA. `MultiConditioner.forward`
hands each key's list to its conditioner with the model's `device`; `NumberConditioner.forward` builds
`torch.tensor(floats).to(device)`, casts to the embedder's dtype, and makes its mask with
`torch.ones(...).to(device)`. Stand-ins: `NumberEmbedder` with a learned positional embedding + linear
(adp.py), a prompt conditioner with an embedding table, and a one-layer "DiT" that consumes the
conditioning.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import typing as tp
import torch
from torch import nn

class LearnedPositionalEmbedding(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.weights = nn.Parameter(torch.randn(dim // 2))

    def forward(self, x):
        x = x.unsqueeze(-1)
        freqs = x * self.weights.unsqueeze(0) * 2 * math.pi
        return torch.cat((x, freqs.sin(), freqs.cos()), dim=-1)

class NumberEmbedder(nn.Module):
    def __init__(self, features, dim=32):
        super().__init__()
        self.features = features
        self.embedding = nn.Sequential(LearnedPositionalEmbedding(dim), nn.Linear(dim + 1, features))

    def forward(self, x):
        if not torch.is_tensor(x):
            device = next(self.embedding.parameters()).device
            x = torch.tensor(x, device=device)
        shape = x.shape
        x = x.reshape(-1)
        return self.embedding(x).view(*shape, self.features)

class NumberConditioner(nn.Module):
    def __init__(self, output_dim, min_val=0, max_val=1):
        super().__init__()
        self.min_val, self.max_val = min_val, max_val
        self.embedder = NumberEmbedder(features=output_dim)

    def forward(self, floats, device=None):
        floats = [float(x) for x in floats]
        floats = torch.tensor(floats).to(device)
        floats = floats.clamp(self.min_val, self.max_val)
        normalized_floats = (floats - self.min_val) / (self.max_val - self.min_val)
        embedder_dtype = next(self.embedder.parameters()).dtype
        normalized_floats = normalized_floats.to(embedder_dtype)
        float_embeds = self.embedder(normalized_floats).unsqueeze(1)
        return [float_embeds, torch.ones(float_embeds.shape[0], 1).to(device)]

class PromptConditioner(nn.Module):
    """T5 conditioner (stand-in): hashed words -> embedding table."""
    def __init__(self, output_dim, vocab=512):
        super().__init__()
        self.vocab = vocab
        self.embed = nn.Embedding(vocab, output_dim)

    def forward(self, texts, device=None):
        ids = torch.tensor([[sum(map(ord, w)) % self.vocab for w in (t.split() + ["<pad>"] * 8)[:8]]
                            for t in texts]).to(device)
        return [self.embed(ids), torch.ones(ids.shape).to(device)]

class MultiConditioner(nn.Module):
    def __init__(self, conditioners):
        super().__init__()
        self.conditioners = nn.ModuleDict(conditioners)

    def forward(self, batch_metadata, device):
        output = {}
        for key, conditioner in self.conditioners.items():
            conditioner_inputs = []
            for x in batch_metadata:
                conditioner_input = x[key][0] if isinstance(x[key], (list, tuple)) and len(x[key]) == 1 else x[key]
                conditioner_inputs.append(conditioner_input)
            output[key] = conditioner(conditioner_inputs, device)
        return output

class ConditionedDiffusionModelWrapper(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.conditioner = MultiConditioner({
            "prompt": PromptConditioner(dim),
            "seconds_start": NumberConditioner(dim, min_val=0, max_val=512),
            "seconds_total": NumberConditioner(dim, min_val=0, max_val=512),
        })
        self.model = nn.Linear(dim, dim)
        self.sample_rate, self.sample_size = 44100, 44100 * 30

    def generate(self, conditioning, device):
        cond = self.conditioner(conditioning, device)
        cross_attn = torch.cat([cond["prompt"][0], cond["seconds_start"][0], cond["seconds_total"][0]], dim=1)
        noise = torch.randn(len(conditioning), 16, cross_attn.shape[-1], device=device)
        return self.model(noise + cross_attn.mean(dim=1, keepdim=True))

device = "cuda:0"
model = ConditionedDiffusionModelWrapper().to(device)       # get_pretrained_model("stabilityai/stable-audio-open-1.0")
conditioning = [{
    "prompt": "128 BPM tech house drum loop",
    "seconds_start": 0,
    "seconds_total": 30,
}]
'''
CELL = '''
output = model.generate(conditioning, device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
