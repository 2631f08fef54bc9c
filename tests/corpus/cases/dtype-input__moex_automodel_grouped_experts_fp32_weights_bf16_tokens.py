"""NeMo Automodel MoE with expert parallelism: the expert weights stay float32 while FSDP2 hands the experts bf16 tokens; the grouped GEMM mixes dtypes.

Source: https://github.com/NVIDIA-NeMo/Automodel/issues/1863
Gemma4 26B-A4B MoE GRPO training crashed in `GroupedExpertsDeepEP.forward()` -> `ops.gmm()` with
"Expected b.scalar_type() == torch::kBFloat16 to be true, but got false": the expert weights
(`gate_and_up_projs`, `down_projs`) are float32 while the activations are bf16 (FSDP2's
MixedPrecisionPolicy casts the block's activations; the EP-sharded experts keep fp32). The fix (PR #1913)
casts `gate_and_up_projs` and `down_projs` to the permuted hidden states' dtype in `forward`.
Stand-in: a Gate (softmax top-k) and GroupedExpertsDeepEP with the DeepEP dispatcher reduced to a sort by
expert and the grouped GEMM (`ops.gmm`) to a per-expert `torch.matmul` loop; no DTensor/`to_local()`.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
from dataclasses import dataclass
import torch
from torch import nn
import torch.nn.functional as F

@dataclass
class MoEConfig:
    dim: int = 32
    moe_inter_dim: int = 16
    n_routed_experts: int = 4
    n_activated_experts: int = 2

def gmm(a, b, tokens_per_expert):
    """Stand-in for grouped_gemm's ops.gmm: one matmul per expert over its contiguous token group."""
    outs, start = [], 0
    for e, n in enumerate(tokens_per_expert.tolist()):
        outs.append(torch.matmul(a[start:start + n], b[e]))
        start += n
    return torch.cat(outs, dim=0)

class Gate(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.topk = config.n_activated_experts
        self.weight = nn.Parameter(torch.randn(config.n_routed_experts, config.dim) * 0.02)

    def forward(self, x):
        scores = F.linear(x, self.weight).softmax(dim=-1, dtype=torch.float32)
        weights, indices = torch.topk(scores, self.topk, dim=-1)
        return weights.type_as(x), indices

class GroupedExpertsDeepEP(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.n_routed_experts = config.n_routed_experts
        self.gate_and_up_projs = nn.Parameter(torch.randn(config.n_routed_experts, config.dim, 2 * config.moe_inter_dim) * 0.02)
        self.down_projs = nn.Parameter(torch.randn(config.n_routed_experts, config.moe_inter_dim, config.dim) * 0.02)

    def token_permutation2(self, hidden_states, token_probs, token_indices):
        flat_idx = token_indices.reshape(-1)
        order = torch.argsort(flat_idx, stable=True)
        token_of = torch.arange(hidden_states.size(0)).repeat_interleave(token_indices.size(1))[order]
        tokens_per_expert = torch.bincount(flat_idx, minlength=self.n_routed_experts)
        return hidden_states[token_of], tokens_per_expert, token_probs.reshape(-1)[order], token_of

    def expert_activation(self, x, probs):
        gate, up = x.chunk(2, dim=-1)
        return F.silu(gate) * up * probs

    def forward(self, x, token_mask, weights, indices):
        (permuted_local_hidden_states, tokens_per_expert, permuted_probs, token_of) = self.token_permutation2(
            hidden_states=x, token_probs=weights, token_indices=indices)
        permuted_probs = permuted_probs.unsqueeze(-1)
        gate_and_up_projs = self.gate_and_up_projs
        down_projs = self.down_projs
        output1 = gmm(permuted_local_hidden_states, gate_and_up_projs, tokens_per_expert)
        output1 = self.expert_activation(output1, permuted_probs)
        output2 = gmm(output1, down_projs, tokens_per_expert)
        return torch.zeros_like(x).index_add_(0, token_of, output2.to(x.dtype))

class MoE(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.gate = Gate(config)
        self.experts = GroupedExpertsDeepEP(config)

    def forward(self, x, padding_mask=None):
        shape = x.shape
        x = x.view(-1, shape[-1])
        token_mask = torch.ones(x.size(0), dtype=torch.bool)
        weights, indices = self.gate(x)
        y = self.experts(x, token_mask, weights, indices)
        return y.view(shape)

config = MoEConfig()
moe = MoE(config)
moe.gate.to(torch.bfloat16)          # FSDP2 MixedPrecisionPolicy(param_dtype=bf16) on the block ...
                                     # ... the EP-sharded experts keep their float32 weights
moe_input = torch.randn(2, 6, config.dim, dtype=torch.bfloat16)
'''
CELL = '''
with torch.no_grad():
    moe_out = moe(moe_input)
'''
EXPECT_ERROR = ("expected m1 and m2 to have the same dtype", "expected scalar type",
                "mat1 and mat2 must have the same dtype")
CULPRITS = ["moe.experts"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        gate_and_up_projs = self.gate_and_up_projs
        down_projs = self.down_projs""",
                  """        gate_and_up_projs = self.gate_and_up_projs.to(permuted_local_hidden_states.dtype)
        down_projs = self.down_projs.to(permuted_local_hidden_states.dtype)""")
CLEAN = False
