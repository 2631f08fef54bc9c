"""Look-alike: a Tutel-style MoE whose custom expert computes in float32, cast back to the activations' dtype before combining.

Source: https://github.com/microsoft/Tutel/pull/8
"avoid custom experts output having different dtype": a user-supplied expert may return another
dtype than its input; the PR casts the experts' output back to the input's dtype before the combine
step. Here a bf16 MoE layer routes tokens to experts that upcast to float32 internally; the outputs
are cast with `.to(x.dtype)` and accumulated into a bf16 buffer with `index_add_`. Mixed dtypes by
design. Stand-in: top-1 gating, a dispatch loop and `index_add_` instead of Tutel's fused kernels;
CPU, dtype only.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class Fp32Expert(nn.Module):
    """A custom expert that runs its FFN in float32 for stability."""
    def __init__(self, model_dim, hidden_size):
        super().__init__()
        self.fc1 = nn.Linear(model_dim, hidden_size).float()
        self.fc2 = nn.Linear(hidden_size, model_dim).float()

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x.float())))

class MOELayer(nn.Module):
    def __init__(self, model_dim=32, num_experts=4, hidden_size=64):
        super().__init__()
        self.gate = nn.Linear(model_dim, num_experts, bias=False)
        self.experts = nn.ModuleList([Fp32Expert(model_dim, hidden_size) for _ in range(num_experts)])

    def forward(self, x):
        shape = x.shape
        x = x.reshape(-1, shape[-1])
        scores = F.softmax(self.gate(x), dim=-1)
        gate_w, expert_idx = scores.max(dim=-1)
        combined = torch.zeros_like(x)
        for e, expert in enumerate(self.experts):
            token_idx = (expert_idx == e).nonzero(as_tuple=True)[0]
            if token_idx.numel() == 0:
                continue
            y = expert(x[token_idx]).to(x.dtype)
            combined.index_add_(0, token_idx, y * gate_w[token_idx, None])
        return combined.reshape(shape)

moe_layer = MOELayer()
moe_layer.gate.to(torch.bfloat16)
x = torch.randn(2, 12, 32, dtype=torch.bfloat16)
'''
CELL = '''
with torch.no_grad():
    y = moe_layer(x)
print(y.dtype, moe_layer.experts[0].fc1.weight.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
