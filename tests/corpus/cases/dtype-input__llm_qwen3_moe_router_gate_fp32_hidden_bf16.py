"""Qwen3-MoE block with the router gate kept in higher precision than the bf16 hidden states: the gate matmul mixes dtypes.

Source: https://github.com/unslothai/unsloth-zoo/pull/882
"qwen3_moe: match router input to the gate weight dtype in the MoE block": with an FP8-style
checkpoint whose router (`self.gate`) is stored at a higher precision than the activations, the
patched `Qwen3MoeSparseMoeBlock.forward` fed the bf16 `hidden_states_reshaped` straight into the
float32 gate and the matmul failed on the dtype mismatch. The PR casts the router input to the gate
weight's dtype (and the routing weights back). Stand-in: the MoE block (softmax top-k routing, expert
loop) with a float32 gate and bfloat16 experts.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class Qwen3MoeMLP(nn.Module):
    def __init__(self, hidden_size, intermediate_size):
        super().__init__()
        self.gate_proj = nn.Linear(hidden_size, intermediate_size, bias=False)
        self.up_proj = nn.Linear(hidden_size, intermediate_size, bias=False)
        self.down_proj = nn.Linear(intermediate_size, hidden_size, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))

class Qwen3MoeSparseMoeBlock(nn.Module):
    def __init__(self, hidden_size=64, num_experts=8, top_k=2, moe_intermediate_size=32):
        super().__init__()
        self.num_experts, self.top_k = num_experts, top_k
        self.norm_topk_prob = True
        self.gate = nn.Linear(hidden_size, num_experts, bias=False)
        self.experts = nn.ModuleList([Qwen3MoeMLP(hidden_size, moe_intermediate_size) for _ in range(num_experts)])

    def forward(self, hidden_states):
        batch_size, sequence_length, hidden_dim = hidden_states.shape
        hidden_states_reshaped = hidden_states.view(-1, hidden_dim)
        router_logits = self.gate(hidden_states_reshaped)
        routing_weights = F.softmax(router_logits, dim=1, dtype=torch.float)
        routing_weights, selected_experts = torch.topk(routing_weights, self.top_k, dim=-1)
        if self.norm_topk_prob:
            routing_weights /= routing_weights.sum(dim=-1, keepdim=True)
        routing_weights = routing_weights.to(hidden_states.dtype)
        final_hidden_states = torch.zeros_like(hidden_states_reshaped)
        expert_mask = F.one_hot(selected_experts, num_classes=self.num_experts).permute(2, 1, 0)
        for expert_idx in range(self.num_experts):
            idx, top_x = torch.where(expert_mask[expert_idx])
            if top_x.numel() == 0:
                continue
            current_state = hidden_states_reshaped[top_x]
            current = self.experts[expert_idx](current_state) * routing_weights[top_x, idx, None]
            final_hidden_states.index_add_(0, top_x, current.to(hidden_states.dtype))
        return final_hidden_states.reshape(batch_size, sequence_length, hidden_dim), router_logits

moe_block = Qwen3MoeSparseMoeBlock()
moe_block.experts.to(torch.bfloat16)          # checkpoint experts in low precision ...
moe_block.gate.to(torch.float32)              # ... router kept in higher precision
hidden_states = torch.randn(2, 6, 64, dtype=torch.bfloat16)
'''
CELL = '''
with torch.no_grad():
    out, router_logits = moe_block(hidden_states)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected m1 and m2 to have the same dtype",
                "expected scalar type")
CULPRITS = ["moe_block.gate"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("router_logits = self.gate(hidden_states_reshaped)",
                  "router_logits = self.gate(hidden_states_reshaped.to(self.gate.weight.dtype))")
CLEAN = False
