"""Look-alike: a reward model dispatched over two GPUs, its gather index moved to the value head's GPU; inputs on the first GPU, rewards on the last.

Source: https://github.com/OpenRLHF/OpenRLHF/issues/938
The reporter's fix of the multi-GPU reward model: `values.gather(dim=1, index=eos_indices.to(
values.device))`. With the backbone split over cuda:0 and cuda:1 (accelerate-style hooks move each
layer's input), the batch stays on cuda:0 and the rewards come back on cuda:1. Two GPUs on purpose,
every op on one device: nothing to report. Stand-in: the reward model's forward and a two-layer
backbone with device hooks.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def add_device_hook(module, device):
    # accelerate's AlignDevicesHook, reduced: move the inputs to the module's device
    module.register_forward_pre_hook(lambda m, args: tuple(a.to(device) for a in args))

class DecoderLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.GELU())

    def forward(self, h):
        return h + self.mlp(self.norm(h))

class Backbone(nn.Module):
    def __init__(self, vocab=300, dim=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(DecoderLayer(dim) for _ in range(2))

    def forward(self, input_ids, attention_mask=None):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = layer(h)
        return {"last_hidden_state": h}

class RewardModel(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.model = Backbone(dim=dim)
        self.score = nn.Linear(dim, 1, bias=False)

    def forward(self, input_ids, attention_mask=None):
        outputs = self.model(input_ids, attention_mask=attention_mask)
        last_hidden_states = outputs["last_hidden_state"]
        values = self.score(last_hidden_states).squeeze(-1)
        eos_indices = attention_mask.size(1) - 1 - attention_mask.long().fliplr().argmax(dim=1, keepdim=True)
        reward = values.gather(dim=1, index=eos_indices.to(values.device)).squeeze(1)
        return reward

model = RewardModel().eval()
# device_map="auto" over two GPUs: embeddings and the first layer on cuda:0, the rest on cuda:1
model.model.embed_tokens.to("cuda:0"); model.model.layers[0].to("cuda:0")
model.model.layers[1].to("cuda:1"); model.score.to("cuda:1")
add_device_hook(model.model.layers[0], "cuda:0")
add_device_hook(model.model.layers[1], "cuda:1")
add_device_hook(model.score, "cuda:1")
input_ids = torch.randint(0, 300, (4, 16), device="cuda:0")
attention_mask = torch.ones(4, 16, dtype=torch.long, device="cuda:0")
'''
CELL = '''
rewards = model(input_ids, attention_mask=attention_mask)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
