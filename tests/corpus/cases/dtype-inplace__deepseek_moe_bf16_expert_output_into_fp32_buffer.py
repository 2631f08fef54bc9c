"""DeepSeek-V2 MoE trained with `--bf16` (autocast): the experts return bfloat16, the dispatch buffer `y` is float32.

Source: https://github.com/hiyouga/LlamaFactory/issues/5943
Pre-training DeepSeek-Coder-V2-Lite with LlamaFactory failed with "Index put requires the source
and destination dtypes match, got Float for the destination and BFloat16 for the source." In the
model's training branch `y = torch.empty_like(hidden_states)` is allocated in the hidden states'
float32 dtype, then filled expert by expert with `y[flat_topk_idx == i] = expert(hidden_states[...])`,
whose Linear layers return bfloat16 under autocast. Stand-in: one MoE layer with the same dispatch
code, a float32 model trained under CPU bfloat16 autocast.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class DeepseekV2MLP(nn.Module):
    def __init__(self, hidden_size=16, intermediate_size=32):
        super().__init__()
        self.gate_proj = nn.Linear(hidden_size, intermediate_size, bias=False)
        self.up_proj = nn.Linear(hidden_size, intermediate_size, bias=False)
        self.down_proj = nn.Linear(intermediate_size, hidden_size, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))

class MoEGate(nn.Module):
    def __init__(self, hidden_size=16, n_routed_experts=4, top_k=2):
        super().__init__()
        self.top_k = top_k
        self.weight = nn.Parameter(torch.randn(n_routed_experts, hidden_size) * 0.1)

    def forward(self, hidden_states):
        h = hidden_states.view(-1, hidden_states.shape[-1])
        scores = F.linear(h.float(), self.weight.float()).softmax(dim=-1)
        topk_weight, topk_idx = torch.topk(scores, k=self.top_k, dim=-1, sorted=False)
        return topk_idx, topk_weight

class DeepseekV2MoE(nn.Module):
    def __init__(self, hidden_size=16, n_routed_experts=4, num_experts_per_tok=2):
        super().__init__()
        self.num_experts_per_tok = num_experts_per_tok
        self.experts = nn.ModuleList([DeepseekV2MLP(hidden_size) for _ in range(n_routed_experts)])
        self.gate = MoEGate(hidden_size, n_routed_experts, num_experts_per_tok)

    def forward(self, hidden_states):
        orig_shape = hidden_states.shape
        topk_idx, topk_weight = self.gate(hidden_states)
        hidden_states = hidden_states.view(-1, hidden_states.shape[-1])
        flat_topk_idx = topk_idx.view(-1)
        if self.training:
            hidden_states = hidden_states.repeat_interleave(self.num_experts_per_tok, dim=0)
            y = torch.empty_like(hidden_states)
            for i, expert in enumerate(self.experts):
                y[flat_topk_idx == i] = expert(hidden_states[flat_topk_idx == i])
            y = (y.view(*topk_weight.shape, -1) * topk_weight.unsqueeze(-1)).sum(dim=1)
            return y.view(*orig_shape)
        return hidden_states.view(*orig_shape)

class DeepseekV2ForCausalLM(nn.Module):
    def __init__(self, vocab_size=50, hidden_size=16):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)
        self.norm = nn.LayerNorm(hidden_size)
        self.mlp = DeepseekV2MoE(hidden_size)
        self.lm_head = nn.Linear(hidden_size, vocab_size, bias=False)

    def forward(self, input_ids, labels):
        h = self.embed_tokens(input_ids)
        h = h + self.mlp(self.norm(h))
        logits = self.lm_head(h).float()
        return F.cross_entropy(logits.flatten(0, 1), labels.flatten())

model = DeepseekV2ForCausalLM()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
batch = {"input_ids": torch.randint(0, 50, (2, 8)), "labels": torch.randint(0, 50, (2, 8))}
'''
CELL = '''
model.train()
with torch.autocast("cpu", dtype=torch.bfloat16):
    loss = model(**batch)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "y[flat_topk_idx == i] = expert(hidden_states[flat_topk_idx == i])",
    "y[flat_topk_idx == i] = expert(hidden_states[flat_topk_idx == i]).to(y.dtype)",
)
CLEAN = False
