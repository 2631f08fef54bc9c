"""A reward model loaded with device_map="auto" gathers its last-token score with indices from the first GPU.

Source: https://github.com/InternLM/InternLM/issues/810
Loading internlm2-20b-reward with device_map="auto" on two GPUs failed at
`reward_scores = torch.gather(hidden_states.squeeze(-1), 1, ends)` with "found at least two
devices, cuda:1 and cuda:0": `ends` is computed from the attention_mask, which stays on the
input's GPU (cuda:0), while the final layers and v_head (hence hidden_states) were dispatched to
cuda:1. Stand-in: accelerate-like pre-forward hooks that move inputs to each submodule's device.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn

class Block(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.mlp = nn.Linear(dim, dim)

    def forward(self, h):
        return h + self.mlp(self.norm(h))

class InternLM2Model(nn.Module):
    def __init__(self, vocab=100, dim=16, n_layers=4):
        super().__init__()
        self.tok_embeddings = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(Block(dim) for _ in range(n_layers))
        self.norm = nn.LayerNorm(dim)

    def forward(self, input_ids, attention_mask):
        h = self.tok_embeddings(input_ids)
        for layer in self.layers:
            h = layer(h)
        return self.norm(h)

class InternLM2ForRewardModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = InternLM2Model()
        self.v_head = nn.Linear(16, 1, bias=False)

    def forward(self, input_ids, attention_mask):
        hidden_states = self.model(input_ids, attention_mask)
        hidden_states = self.v_head(hidden_states)
        # get end reward token's score
        ends = attention_mask.cumsum(dim=1).argmax(dim=1).view(-1, 1)
        reward_scores = torch.gather(hidden_states.squeeze(-1), 1, ends)
        return reward_scores

def dispatch_model(model, device_map):
    for name, device in device_map.items():
        module = model.get_submodule(name)
        module.to(device)
        def align_inputs(mod, args, device=device):
            return tuple(a.to(device) if isinstance(a, torch.Tensor) else a for a in args)
        module.register_forward_pre_hook(align_inputs)
    model.hf_device_map = dict(device_map)
    return model

device_map = {"model.tok_embeddings": "cuda:0", "model.layers.0": "cuda:0", "model.layers.1": "cuda:0",
              "model.layers.2": "cuda:1", "model.layers.3": "cuda:1", "model.norm": "cuda:1",
              "v_head": "cuda:1"}
reward_model = dispatch_model(InternLM2ForRewardModel().eval(), device_map)

input_ids = torch.randint(0, 100, (2, 9), device="cuda:0")
attention_mask = torch.ones(2, 9, dtype=torch.long, device="cuda:0")
'''
CELL = '''
with torch.no_grad():
    scores = reward_model(input_ids, attention_mask)
'''
EXPECT_ERROR = "cuda:1 and cuda:0"
CULPRITS = ["reward_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("ends = attention_mask.cumsum(dim=1).argmax(dim=1).view(-1, 1)",
                  "ends = attention_mask.cumsum(dim=1).argmax(dim=1).view(-1, 1).to(hidden_states.device)")
CLEAN = False
