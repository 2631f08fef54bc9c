"""Megatron-core TopKRouter with input jitter in a bf16 model: the jitter sampler is built from float32 bounds and promotes the router input to float32.

Source: https://github.com/NVIDIA/Megatron-LM/pull/1726
"fix router input jitter dtype": `TopKRouter.apply_input_jitter` builds
`torch.distributions.uniform.Uniform(torch.tensor(1.0 - eps, device=...), torch.tensor(1.0 + eps, ...)).rsample`,
which samples float32; `input * self.input_jitter(input.shape)` then turns the bf16 hidden states into
float32, "this breaks the downstream router forward pass if router weights are in a different dtype e.g.
torch.BFloat16Tensor". The PR creates the jitter bounds with the input's dtype.
Stand-in: the Router base class (a bf16 `weight` parameter used by `F.linear` in `gating`) and TopKRouter
with plain softmax top-k routing; `moe_input_jitter_eps` set in the config.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
from dataclasses import dataclass
import torch
from torch import nn

@dataclass
class TransformerConfig:
    hidden_size: int = 32
    num_moe_experts: int = 8
    moe_router_topk: int = 2
    moe_input_jitter_eps: float = 0.01
    params_dtype: torch.dtype = torch.bfloat16

class Router(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.num_experts = self.config.num_moe_experts
        self.weight = torch.nn.Parameter(
            torch.empty((self.config.num_moe_experts, self.config.hidden_size), dtype=config.params_dtype)
        )
        torch.nn.init.normal_(self.weight, std=0.02)

    def gating(self, input):
        logits = torch.nn.functional.linear(input, self.weight)
        return logits

class TopKRouter(Router):
    def __init__(self, config):
        super().__init__(config=config)
        self.topk = self.config.moe_router_topk
        self.input_jitter = None

    def apply_input_jitter(self, input):
        if self.config.moe_input_jitter_eps is not None:
            eps = self.config.moe_input_jitter_eps
            if self.input_jitter is None:
                self.input_jitter = torch.distributions.uniform.Uniform(
                    torch.tensor(1.0 - eps, device=input.device),
                    torch.tensor(1.0 + eps, device=input.device),
                ).rsample
            return input * self.input_jitter(input.shape)
        else:
            return input

    def routing(self, logits):
        scores, indices = torch.topk(torch.softmax(logits.float(), dim=-1), k=self.topk, dim=1)
        return scores.type_as(logits), indices

    def forward(self, input):
        self.hidden = input.shape[-1]
        input = self.apply_input_jitter(input)
        logits = self.gating(input)
        logits = logits.view(-1, self.config.num_moe_experts)
        scores, indices = self.routing(logits)
        return scores, indices

config = TransformerConfig()
router = TopKRouter(config)
hidden_states = torch.randn(8, 2, config.hidden_size, dtype=torch.bfloat16)   # [s, b, h] in bf16
'''
CELL = '''
with torch.no_grad():
    scores, indices = router(hidden_states)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected m1 and m2 to have the same dtype",
                "expected scalar type")
CULPRITS = ["router"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""                    torch.tensor(1.0 - eps, device=input.device),
                    torch.tensor(1.0 + eps, device=input.device),""",
                  """                    torch.tensor(1.0 - eps, dtype=input.dtype, device=input.device),
                    torch.tensor(1.0 + eps, dtype=input.dtype, device=input.device),""")
CLEAN = False
