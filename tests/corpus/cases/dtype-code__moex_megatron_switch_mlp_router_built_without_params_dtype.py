"""Megatron-core SwitchMLP in bf16: the router is a plain `torch.nn.Linear` built without the config's `params_dtype`.

Source: https://github.com/NVIDIA/Megatron-LM/pull/669
"[Fix] moe router layer missing dtype argument": a user builds a MoE `GPTModel` from megatron.core with
bf16 enabled and calls `model(input_ids=..., attention_mask=..., position_ids=...)`; the forward fails in
`switch_mlp.py` at `route = self.router(hidden_states)` -> `F.linear` with "RuntimeError: expected scalar
type ...": every parallel layer is created with `params_dtype` (bf16) but `self.router =
torch.nn.Linear(hidden_size, num_moe_experts)` stays float32. The PR passes the dtype to the router.
Stand-in: TransformerConfig as a dataclass, the embedding and the expert MLPs built with
`dtype=config.params_dtype` as megatron's Column/RowParallelLinear do, and SwitchMLP's top-1 sigmoid routing
(eval path) with a local expert loop; no parallel state.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
from dataclasses import dataclass
import torch
from torch import nn
import torch.nn.functional as F

@dataclass
class TransformerConfig:
    hidden_size: int = 32
    ffn_hidden_size: int = 64
    num_moe_experts: int = 4
    params_dtype: torch.dtype = torch.bfloat16
    bf16: bool = True

class MLP(nn.Module):
    def __init__(self, config, is_expert=False):
        super().__init__()
        self.linear_fc1 = nn.Linear(config.hidden_size, config.ffn_hidden_size, dtype=config.params_dtype)
        self.linear_fc2 = nn.Linear(config.ffn_hidden_size, config.hidden_size, dtype=config.params_dtype)

    def forward(self, hidden_states):
        return self.linear_fc2(F.gelu(self.linear_fc1(hidden_states))), None

class SwitchMLP(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.router = torch.nn.Linear(self.config.hidden_size, self.config.num_moe_experts)
        self.router_activation = torch.sigmoid
        self.local_experts = nn.ModuleList([MLP(config, is_expert=True) for _ in range(config.num_moe_experts)])

    def forward(self, hidden_states):
        hidden_shape = hidden_states.shape
        route = self.router(hidden_states)
        route = route.view(-1, self.config.num_moe_experts)
        route = self.router_activation(route)
        max_prob, max_ind = torch.max(route, dim=1)
        max_prob = torch.unsqueeze(max_prob, 1)
        hidden_states = hidden_states.view(-1, hidden_shape[-1])
        output_total = torch.zeros_like(hidden_states)
        for expert_num, expert in enumerate(self.local_experts):
            local_indices = (max_ind == expert_num).nonzero()
            hidden = hidden_states[local_indices, :]
            output, output_bias = expert(hidden)
            output_total[local_indices, :] = output
        output_total = output_total * max_prob
        return output_total.view(hidden_shape), None

class GPTModel(nn.Module):
    def __init__(self, config, vocab_size=100):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, config.hidden_size, dtype=config.params_dtype)
        self.mlp = SwitchMLP(config)
        self.output_layer = nn.Linear(config.hidden_size, vocab_size, bias=False, dtype=config.params_dtype)

    def forward(self, input_ids, attention_mask=None, position_ids=None):
        hidden_states = self.embedding(input_ids)
        mlp_out, _ = self.mlp(hidden_states)
        return self.output_layer(hidden_states + mlp_out)

config = TransformerConfig()
model = GPTModel(config=config)
input_ids = torch.randint(0, 100, (2, 8))
position_ids = torch.arange(8).unsqueeze(0).expand(2, -1)
'''
CELL = '''
with torch.no_grad():
    logits = model(input_ids=input_ids, attention_mask=None, position_ids=position_ids)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected m1 and m2 to have the same dtype",
                "expected scalar type")
CULPRITS = ["model.mlp"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("self.router = torch.nn.Linear(self.config.hidden_size, self.config.num_moe_experts)",
                  "self.router = torch.nn.Linear(self.config.hidden_size, self.config.num_moe_experts, "
                  "dtype=self.config.params_dtype)")
CLEAN = False
