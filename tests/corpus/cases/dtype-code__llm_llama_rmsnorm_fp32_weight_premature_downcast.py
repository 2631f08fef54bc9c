"""LlamaRMSNorm with float32 weights in a bfloat16 Llama: it downcasts the operand, not the result, and the next Linear gets float32.

Source: https://github.com/huggingface/transformers/pull/25421
"Fix premature downcast in LlamaRMSNorm": during full fine-tuning with a QLoRA-style script the norm
layers are kept in float32 while the rest of the model is bfloat16. `LlamaRMSNorm.forward` returns
`self.weight * hidden_states.to(input_dtype)`: the cast happens before the multiply, so the float32
weight promotes the output back to float32 and the following projection fails with "expected mat1 and
mat2 to have the same dtype, but got: float != c10::BFloat16". The PR casts the product instead:
`(self.weight * hidden_states).to(input_dtype)`. Stand-in: LlamaRMSNorm and one decoder layer.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class LlamaRMSNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        input_dtype = hidden_states.dtype
        variance = hidden_states.to(torch.float32).pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return self.weight * hidden_states.to(input_dtype)

class LlamaDecoderLayer(nn.Module):
    def __init__(self, hidden_size=64, intermediate_size=128):
        super().__init__()
        self.input_layernorm = LlamaRMSNorm(hidden_size)
        self.q_proj = nn.Linear(hidden_size, hidden_size, bias=False)
        self.post_attention_layernorm = LlamaRMSNorm(hidden_size)
        self.gate_proj = nn.Linear(hidden_size, intermediate_size, bias=False)
        self.down_proj = nn.Linear(intermediate_size, hidden_size, bias=False)

    def forward(self, hidden_states):
        hidden_states = hidden_states + self.q_proj(self.input_layernorm(hidden_states))
        h = self.post_attention_layernorm(hidden_states)
        return hidden_states + self.down_proj(F.silu(self.gate_proj(h)))

class LlamaForCausalLM(nn.Module):
    def __init__(self, vocab_size=100, hidden_size=64):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)
        self.layer = LlamaDecoderLayer(hidden_size)
        self.norm = LlamaRMSNorm(hidden_size)
        self.lm_head = nn.Linear(hidden_size, vocab_size, bias=False)

    def forward(self, input_ids):
        return self.lm_head(self.norm(self.layer(self.embed_tokens(input_ids))))

model = LlamaForCausalLM().to(torch.bfloat16)
for name, module in model.named_modules():       # the training script keeps norms in float32
    if "norm" in name:
        module.to(torch.float32)
input_ids = torch.randint(0, 100, (2, 10))
'''
CELL = '''
logits = model(input_ids)
loss = F.cross_entropy(logits.float().flatten(0, 1), input_ids.flatten())
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected m1 and m2 to have the same dtype",
                "expected scalar type")
CULPRITS = ["model.layer.input_layernorm"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return self.weight * hidden_states.to(input_dtype)",
                  "return (self.weight * hidden_states).to(input_dtype)")
CLEAN = False
