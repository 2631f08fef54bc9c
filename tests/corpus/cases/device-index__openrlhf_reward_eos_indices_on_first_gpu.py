"""OpenRLHF reward server with a 32B reward model over several GPUs: the `eos_indices` gather index sits on the first GPU.

Source: https://github.com/OpenRLHF/OpenRLHF/issues/938
"RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:7
and cuda:0! (when checking argument for argument index in method wrapper_CUDA_gather)" at
`reward = values.gather(dim=1, index=eos_indices).squeeze(1)` in `openrlhf/models/model.py`: with the
model dispatched over the GPUs, the value head runs on the last GPU, while `eos_indices` is computed
from the `attention_mask` on the first. The reporter's fix: `index=eos_indices.to(values.device)`.
Stand-in: the reward model's forward with a two-layer backbone dispatched over cuda:0 and cuda:1
(accelerate-style pre-hooks move each layer's input to the layer's GPU).
"""

SIM = "fake_cuda"
FAMILY = "device-index"
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
        reward = values.gather(dim=1, index=eos_indices).squeeze(1)
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
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["eos_indices"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "values.gather(dim=1, index=eos_indices)",
    "values.gather(dim=1, index=eos_indices.to(values.device))",
)
CLEAN = False
