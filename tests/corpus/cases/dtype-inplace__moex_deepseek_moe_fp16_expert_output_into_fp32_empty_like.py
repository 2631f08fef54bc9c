"""DeepSeekMoE-16B fine-tuned with fp16 mixed precision: the training branch writes half-precision expert outputs into a float32 `empty_like` buffer.

Source: https://github.com/hiyouga/LlamaFactory/issues/2639
LoRA SFT of deepseek-moe-16b-chat with `--fp16 True` failed in the remote-code `modeling_deepseek.py`,
`DeepseekMoE.forward`, at `y[flat_topk_idx == i] = expert(hidden_states[flat_topk_idx == i])` with
"RuntimeError: Index put requires the source and destination dtypes match, got Float for the destination
and Half for the source.": `y = torch.empty_like(hidden_states)` follows the float32 hidden states while the
experts return half. The maintainer (hiyouga) answered to change that line to
`y = torch.empty_like(hidden_states).half()`.
Stand-in: MoEGate (softmax top-k, aux loss off) and DeepseekMoE's training branch with its DeepseekMLP
experts, inside a one-layer causal LM; CPU float16 autocast stands for the fp16 mixed-precision trainer.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn
import torch.nn.functional as F

config = SimpleNamespace(hidden_size=32, moe_intermediate_size=16, n_routed_experts=4, num_experts_per_tok=2,
                         norm_topk_prob=False, vocab_size=100)

class DeepseekMLP(nn.Module):
    def __init__(self, config, intermediate_size):
        super().__init__()
        self.gate_proj = nn.Linear(config.hidden_size, intermediate_size, bias=False)
        self.up_proj = nn.Linear(config.hidden_size, intermediate_size, bias=False)
        self.down_proj = nn.Linear(intermediate_size, config.hidden_size, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))

class MoEGate(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.top_k = config.num_experts_per_tok
        self.n_routed_experts = config.n_routed_experts
        self.norm_topk_prob = config.norm_topk_prob
        self.weight = nn.Parameter(torch.randn(self.n_routed_experts, config.hidden_size) * 0.02)

    def forward(self, hidden_states):
        bsz, seq_len, h = hidden_states.shape
        hidden_states = hidden_states.view(-1, h)
        logits = F.linear(hidden_states, self.weight, None)
        scores = logits.softmax(dim=-1)
        topk_weight, topk_idx = torch.topk(scores, k=self.top_k, dim=-1, sorted=False)
        return topk_idx, topk_weight, None

class DeepseekMoE(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.num_experts_per_tok = config.num_experts_per_tok
        self.experts = nn.ModuleList([DeepseekMLP(config, config.moe_intermediate_size) for _ in range(config.n_routed_experts)])
        self.gate = MoEGate(config)

    def forward(self, hidden_states):
        orig_shape = hidden_states.shape
        topk_idx, topk_weight, aux_loss = self.gate(hidden_states)
        hidden_states = hidden_states.view(-1, hidden_states.shape[-1])
        flat_topk_idx = topk_idx.view(-1)
        hidden_states = hidden_states.repeat_interleave(self.num_experts_per_tok, dim=0)
        y = torch.empty_like(hidden_states)
        for i, expert in enumerate(self.experts):
            y[flat_topk_idx == i] = expert(hidden_states[flat_topk_idx == i])
        y = (y.view(*topk_weight.shape, -1) * topk_weight.unsqueeze(-1)).sum(dim=1)
        y = y.view(*orig_shape)
        return y

class DeepseekForCausalLM(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.embed_tokens = nn.Embedding(config.vocab_size, config.hidden_size)
        self.mlp = DeepseekMoE(config)
        self.lm_head = nn.Linear(config.hidden_size, config.vocab_size, bias=False)

    def forward(self, input_ids):
        hidden_states = self.embed_tokens(input_ids)
        hidden_states = hidden_states + self.mlp(hidden_states)
        return self.lm_head(hidden_states)

model = DeepseekForCausalLM(config)
model.train()
input_ids = torch.randint(0, config.vocab_size, (2, 8))
'''
CELL = '''
with torch.no_grad(), torch.autocast("cpu", dtype=torch.float16):
    logits = model(input_ids)
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["model.mlp"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("y = torch.empty_like(hidden_states)",
                  "y = torch.empty_like(hidden_states).half()")
CLEAN = False
