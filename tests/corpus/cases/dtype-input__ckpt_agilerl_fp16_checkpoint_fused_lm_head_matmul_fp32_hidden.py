"""AgileRL GRPO: an actor loaded from an fp16 checkpoint; under bf16 autocast the final norm hands fp32 hidden states to a fused lm_head matmul done outside autocast.

Source: https://github.com/AgileRL/AgileRL/pull/598
"loading a checkpoint that was fp16 ... causes a dtype mismatch crash": GRPO/PPO-LLM raised
"expected mat1 and mat2 to have the same dtype, but got: float != c10::Half" from
`_fused_logprob_chunk` (`h_chunk @ lm_head_weight.t()`). transformers 5 honours the checkpoint's
dtype, so the actor is fp16; in the bf16 autocast context the final norm promotes the hidden states
to fp32 (bf16 activations x fp16 norm weight), while the lm_head weight keeps the checkpoint dtype;
the fused matmul runs outside autocast. The fix promotes both operands to
`torch.promote_types(hidden.dtype, weight.dtype)`. Stand-in: a two-layer causal LM; run on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn

class RMSNorm(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + 1e-6) * self.weight

class TinyCausalLM(nn.Module):
    def __init__(self, vocab=128, d=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([nn.Linear(d, d) for _ in range(2)])
        self.norm = RMSNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def hidden_states(self, input_ids):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = h + torch.relu(layer(h))
        return self.norm(h)

def _fused_logprob_chunk(h_chunk, lm_head_weight, target_chunk, temperature=1.0):
    logits = (h_chunk @ lm_head_weight.t()) / temperature
    return torch.log_softmax(logits.float(), -1).gather(-1, target_chunk[..., None]).squeeze(-1)

class GRPO:
    def __init__(self, actor):
        self.actor = actor

    def _amp_ctx(self):
        return torch.autocast("cpu", dtype=torch.bfloat16)

    def _get_logprobs(self, input_ids):
        with self._amp_ctx():
            hidden = self.actor.hidden_states(input_ids[:, :-1])
        return _fused_logprob_chunk(hidden, self.actor.lm_head.weight, input_ids[:, 1:])

actor = TinyCausalLM().to(torch.float16)     # AutoModelForCausalLM.from_pretrained(fp16 checkpoint)
agent = GRPO(actor)
completion_ids = torch.randint(0, 128, (2, 12))
'''
CELL = '''
log_probs = agent._get_logprobs(completion_ids)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type")
CULPRITS = ["agent.actor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    logits = (h_chunk @ lm_head_weight.t()) / temperature\n",
                  "    dtype = torch.promote_types(h_chunk.dtype, lm_head_weight.dtype)\n    logits = (h_chunk.to(dtype) @ lm_head_weight.to(dtype).t()) / temperature\n")
CLEAN = False
