"""Sidon TorchScript feature extractor under multi-GPU DDP: the traced `torch.arange` calls carry `device="cuda:0"`, and the rank on cuda:1 fails.

Source: https://github.com/sarulab-speech/Sidon/issues/6
The user ran the released Sidon TorchScript files inside a PyTorch Lightning DDP job, which places
each rank on its own GPU. Even with `map_location` and `model.to(device)`, the rank on cuda:1 failed
with tensors on cuda:0 and cuda:1. Inspecting `code_with_constants` showed `torch.arange` calls with
`device="cuda:0"` hard-coded: `jit.trace` records the device of tensors made inside `forward`
(`map_location` only moves parameters, buffers and constants). The suggested fix: script the model, or
make `arange` use the input tensor's device. Stand-ins: the traced relative-position attention of the
wav2vec2-BERT feature extractor written out as the code the trace recorded, one layer.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn

class TracedRelPosAttention(nn.Module):   # one layer of the traced feature_extractor
    def __init__(self, dim=32, left_max=64, right_max=8):
        super().__init__()
        self.left_max, self.right_max = left_max, right_max
        self.linear_q = nn.Linear(dim, dim)
        self.distance_embedding = nn.Embedding(left_max + right_max + 1, dim)

    def forward(self, hidden_states):
        query = self.linear_q(hidden_states)
        query_length = hidden_states.shape[1]
        position_ids_l = torch.arange(query_length, dtype=torch.long, device=torch.device("cuda:0")).view(-1, 1)
        position_ids_r = torch.arange(query_length, dtype=torch.long, device=torch.device("cuda:0")).view(1, -1)
        distance = position_ids_r - position_ids_l
        distance = torch.clamp(distance, -self.left_max, self.right_max)
        positional_embedding = self.distance_embedding(distance + self.left_max)
        positional_embedding = positional_embedding.to(dtype=query.dtype)
        return torch.einsum("bld,lrd->blr", query, positional_embedding)

local_rank = 1                          # set by Lightning's DDP strategy
device = torch.device(f"cuda:{local_rank}")
feature_extractor = TracedRelPosAttention()   # torch.jit.load("feature_extractor.pt", map_location=device)
feature_extractor.to(device)
features = torch.randn(2, 20, 32).to(device)
'''
CELL = '''
attn_scores = feature_extractor(features)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["feature_extractor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''        position_ids_l = torch.arange(query_length, dtype=torch.long, device=torch.device("cuda:0")).view(-1, 1)
        position_ids_r = torch.arange(query_length, dtype=torch.long, device=torch.device("cuda:0")).view(1, -1)''',
                  '''        position_ids_l = torch.arange(query_length, dtype=torch.long, device=hidden_states.device).view(-1, 1)
        position_ids_r = torch.arange(query_length, dtype=torch.long, device=hidden_states.device).view(1, -1)''')
CLEAN = False
