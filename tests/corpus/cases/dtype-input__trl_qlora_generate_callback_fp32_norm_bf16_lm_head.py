"""QLoRA with `bf16=True`: `model.generate()` inside a TrainerCallback fails, the final norm is fp32 and lm_head bf16.

Source: https://github.com/huggingface/peft/issues/1515
"an error with `model.generate` when used inside a `TrainerCallback` of `SFTTrainer`. Happens only
when training with `TrainingArguments(.., bf16=True, ..)`": "expected mat1 and mat2 to have the
same dtype, but got: float != c10::BFloat16". SFTTrainer's `peft_module_casting_to_bf16` puts the
norm layers in float32 and `lm_head`/`embed_tokens` in bfloat16; the training step runs under
autocast, the callback's generation does not. Stand-in: a Llama-shaped model with 4-bit-style
Linear layers that cast their input to the bf16 compute dtype, the trl casting helper, and one
greedy decoding step; run on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class Linear4bit(nn.Linear):
    """Stand-in for bnb.nn.Linear4bit: casts its input to the compute dtype."""
    def __init__(self, *a, compute_dtype=torch.bfloat16, **k):
        super().__init__(*a, **k)
        self.compute_dtype = compute_dtype
        self.to(compute_dtype)

    def forward(self, x):
        return super().forward(x.to(self.compute_dtype))

class LlamaRMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, hidden_states):
        input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(torch.float32)
        hidden_states = hidden_states * torch.rsqrt(hidden_states.pow(2).mean(-1, keepdim=True) + self.eps)
        return self.weight * hidden_states.to(input_dtype)

class DecoderLayer(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.input_layernorm = LlamaRMSNorm(dim)
        self.q_proj = Linear4bit(dim, dim, bias=False)
        self.o_proj = Linear4bit(dim, dim, bias=False)

    def forward(self, h):
        return h + self.o_proj(torch.tanh(self.q_proj(self.input_layernorm(h))))

class LlamaModel(nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList([DecoderLayer(dim) for _ in range(2)])
        self.norm = LlamaRMSNorm(dim)

    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = layer(h)
        return self.norm(h)

class LlamaForCausalLM(nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.model = LlamaModel(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids):
        return self.lm_head(self.model(input_ids))

    @torch.no_grad()
    def generate(self, input_ids, max_new_tokens=1):
        for _ in range(max_new_tokens):
            next_token = self(input_ids)[:, -1].argmax(-1, keepdim=True)
            input_ids = torch.cat([input_ids, next_token], dim=-1)
        return input_ids

def peft_module_casting_to_bf16(model):
    for name, module in model.named_modules():
        if isinstance(module, LlamaRMSNorm) or "norm" in name:
            module.to(torch.float32)
        elif any(x in name for x in ["lm_head", "embed_tokens"]):
            if hasattr(module, "weight") and module.weight.dtype == torch.float32:
                module.to(torch.bfloat16)

model = LlamaForCausalLM()            # from_pretrained(..., quantization_config=bnb 4bit, bf16 compute)
peft_module_casting_to_bf16(model)     # SFTTrainer(..., args=TrainingArguments(bf16=True))
input_tok = {"input_ids": torch.randint(0, 100, (1, 5))}     # tokenizer("test", return_tensors="pt")
'''
CELL = '''
out = model.generate(**input_tok)     # inside TrainerCallback.on_evaluate, no autocast
'''
EXPECT_ERROR = ("must have the same dtype", "to have the same dtype")
CULPRITS = ["model.model.norm"]
FIX = "namespace"
REFERENCE_FIX = '''
model.model.norm.to(torch.bfloat16)
'''
REFERENCE_EDIT = None
CLEAN = False
