"""Look-alike: Megatron-core TopKRouter in a bf16 model with `moe_router_dtype="fp32"` and a float32 `expert_bias` buffer kept on purpose.

Source: https://github.com/NVIDIA/Megatron-LM/blob/main/megatron/core/transformer/moe/router.py
The router weight is stored in `params_dtype` (bf16) but `gating` runs `router_gating_linear(input,
self.weight, router_dtype)` in float32; with `moe_router_enable_expert_bias` the `expert_bias` buffer is
float32 (`_maintain_float32_expert_bias` undoes Float16Module's cast), the bias is added to the sigmoid
scores for top-k selection only, and the routed-token counts accumulate into `local_tokens_per_expert`. Several dtypes meet in one router, all by design.
Stand-in: Router/TopKRouter without process groups or aux losses, `router_gating_linear` as casts plus
`F.linear`, the sigmoid + expert-bias branch of `topk_softmax_with_capacity`, and a dense expert mix.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
from dataclasses import dataclass
import torch
from torch import nn
import torch.nn.functional as F

@dataclass
class TransformerConfig:
    hidden_size: int = 32
    ffn_hidden_size: int = 64
    num_moe_experts: int = 8
    moe_router_topk: int = 2
    moe_router_dtype: str = "fp32"
    moe_router_enable_expert_bias: bool = True
    params_dtype: torch.dtype = torch.bfloat16

def router_gating_linear(inp, weight, router_dtype):
    return F.linear(inp.to(router_dtype), weight.to(router_dtype))

def topk_sigmoid_with_expert_bias(logits, topk, expert_bias):
    scores = torch.sigmoid(logits.float()).type_as(logits)
    scores_for_routing = scores + expert_bias
    _, top_indices = torch.topk(scores_for_routing, k=topk, dim=1)
    scores = torch.gather(scores, dim=1, index=top_indices).type_as(logits)
    probs = scores / (scores.sum(dim=-1, keepdim=True) + 1e-20)
    topk_masked_gates = torch.zeros_like(logits).scatter(1, top_indices, probs)
    routing_map = torch.zeros_like(logits).int().scatter(1, top_indices, 1).bool()
    return topk_masked_gates, routing_map

class TopKRouter(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.topk = config.moe_router_topk
        self.weight = nn.Parameter(torch.empty((config.num_moe_experts, config.hidden_size), dtype=torch.float32))
        nn.init.normal_(self.weight, std=0.02)
        self.weight.data = self.weight.data.to(dtype=config.params_dtype)
        self.register_buffer('local_tokens_per_expert', torch.zeros(config.num_moe_experts, dtype=torch.float32), persistent=False)
        self.register_buffer('expert_bias', torch.zeros(config.num_moe_experts, dtype=torch.float32))

    def _maintain_float32_expert_bias(self):
        if self.expert_bias is not None and self.expert_bias.dtype != torch.float32:
            self.expert_bias.data = self.expert_bias.data.to(torch.float32)

    def gating(self, input):
        router_dtype = input.dtype
        if self.config.moe_router_dtype == 'fp32':
            router_dtype = torch.float32
        return router_gating_linear(input, self.weight, router_dtype)

    def forward(self, input):
        self._maintain_float32_expert_bias()
        logits = self.gating(input).view(-1, self.config.num_moe_experts)
        probs, routing_map = topk_sigmoid_with_expert_bias(logits, self.topk, self.expert_bias)
        with torch.no_grad():
            self.local_tokens_per_expert += routing_map.sum(dim=0)
        return probs, routing_map

class MoELayer(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.router = TopKRouter(config)
        self.experts = nn.ModuleList([
            nn.Sequential(nn.Linear(config.hidden_size, config.ffn_hidden_size, dtype=config.params_dtype), nn.GELU(),
                          nn.Linear(config.ffn_hidden_size, config.hidden_size, dtype=config.params_dtype))
            for _ in range(config.num_moe_experts)])

    def forward(self, hidden_states):
        shape = hidden_states.shape
        flat = hidden_states.view(-1, shape[-1])
        probs, routing_map = self.router(flat)
        out = sum(expert(flat) * probs[:, e:e + 1] for e, expert in enumerate(self.experts))
        return out.to(hidden_states.dtype).view(shape)

config = TransformerConfig()
moe_layer = MoELayer(config)
moe_layer.to(torch.bfloat16)                      # Float16Module casts the whole model ...
hidden_states = torch.randn(8, 2, config.hidden_size, dtype=torch.bfloat16)
'''
CELL = '''
with torch.no_grad():
    output = moe_layer(hidden_states)
print(output.dtype, moe_layer.router.expert_bias.dtype, moe_layer.router.local_tokens_per_expert.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
