"""Switch Transformers under bf16 mixed precision: the SparseMLP writes bf16 expert outputs into a float32 clone of the hidden states.

Source: https://github.com/huggingface/transformers/issues/27219
"Wrong Data Type for Switch Transformer in Mixed Precision Training" (accelerate, `mixed_precision: bf16`):
`SwitchTransformersSparseMLP.forward` builds `next_states = hidden_states.clone()` (float32, the layer-norm
output) and assigns `next_states[token_indices] = expert(hidden_states[token_indices])`; under autocast the
expert's Linear layers return bfloat16, and the index assignment refuses the mismatched dtype. The fix
(PR #27220 by the reporter) casts the expert output: `expert(...).to(next_states.dtype)`.
Stand-in: the Top-1 router (float32 router, argmax one-hot mask, no capacity) and the DenseActDense
experts and the T5-style layer norm (float32 out) of transformers 4.32; autocast on the CPU with bfloat16 stands for accelerate's bf16 autocast.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
from torch import nn

class SwitchTransformersTop1Router(nn.Module):
    def __init__(self, d_model=32, num_experts=4):
        super().__init__()
        self.num_experts = num_experts
        self.classifier = nn.Linear(d_model, num_experts, bias=False)
        self.dtype = torch.float32

    def forward(self, hidden_states):
        self.input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(self.dtype)
        router_logits = self.classifier(hidden_states)
        router_probs = nn.functional.softmax(router_logits, dim=-1, dtype=self.dtype).to(self.input_dtype)
        expert_index = torch.argmax(router_probs, dim=-1)
        expert_index = nn.functional.one_hot(expert_index, num_classes=self.num_experts)
        router_probs = torch.max(router_probs, dim=-1).values.unsqueeze(-1)
        return expert_index, router_probs, router_logits

class SwitchTransformersDenseActDense(nn.Module):
    def __init__(self, d_model=32, d_ff=64):
        super().__init__()
        self.wi = nn.Linear(d_model, d_ff, bias=False)
        self.wo = nn.Linear(d_ff, d_model, bias=False)
        self.act = nn.ReLU()

    def forward(self, hidden_states):
        return self.wo(self.act(self.wi(hidden_states)))

class SwitchTransformersSparseMLP(nn.Module):
    def __init__(self, d_model=32, num_experts=4):
        super().__init__()
        self.router = SwitchTransformersTop1Router(d_model, num_experts)
        self.experts = nn.ModuleDict({f"expert_{i}": SwitchTransformersDenseActDense(d_model) for i in range(num_experts)})

    def forward(self, hidden_states):
        router_mask, router_probs, router_logits = self.router(hidden_states)
        expert_index = torch.argmax(router_mask, dim=-1)
        next_states = hidden_states.clone()
        for idx, expert in enumerate(self.experts.values()):
            token_indices = router_mask[:, :, idx].bool()
            next_states[token_indices] = expert(hidden_states[token_indices])
        hidden_states = router_probs * next_states
        return hidden_states, (router_logits, expert_index)

class SwitchTransformersLayerNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        if self.weight.dtype in [torch.float16, torch.bfloat16]:
            hidden_states = hidden_states.to(self.weight.dtype)
        return self.weight * hidden_states

class SwitchTransformersLayerFF(nn.Module):
    def __init__(self, d_model=32):
        super().__init__()
        self.mlp = SwitchTransformersSparseMLP(d_model)
        self.layer_norm = SwitchTransformersLayerNorm(d_model)

    def forward(self, hidden_states):
        forwarded_states = self.layer_norm(hidden_states)
        forwarded_states, router_tuple = self.mlp(forwarded_states)
        return hidden_states + forwarded_states, router_tuple

layer_ff = SwitchTransformersLayerFF()
hidden_states = torch.randn(2, 10, 32)
'''
CELL = '''
with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16):
    out, (router_logits, expert_index) = layer_ff(hidden_states)
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["layer_ff.mlp"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("next_states[token_indices] = expert(hidden_states[token_indices])",
                  "next_states[token_indices] = expert(hidden_states[token_indices]).to(next_states.dtype)")
CLEAN = False
