"""QLoRA preparation upcasts the norm layers of a 4-bit Qwen2 model to float32; the norm's float32 output then reaches a float16 linear layer.

Source: https://github.com/huggingface/trl/pull/4457
"Prevent upcasting norm layers in `prepare_model_for_kbit_training`": with GRPO + QLoRA on
Qwen/Qwen2-7B-Instruct the author hit `F.linear(input, self.weight, self.bias)` ->
"RuntimeError: expected scalar type Float but found Half"; "removing this bit [the upcasting of the
norm layers], the error doesn't happen", and results and memory are no worse without it. The PR drops
the upcast so the norms stay in the model's compute dtype.
Stand-in: a Qwen2-like model whose projections are `Linear4bit`-style layers (float16 compute dtype,
input cast to it) and whose `lm_head` is a plain float16 linear; the preparation helper upcasts every
norm module to float32, so the final `RMSNorm` (`self.weight * h`) returns float32. CPU, dtype only.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class Linear4bit(nn.Linear):                       # bnb: dequantize, compute in compute_dtype
    def __init__(self, *a, compute_dtype=torch.float16, **k):
        super().__init__(*a, **k)
        self.compute_dtype = compute_dtype

    def forward(self, x):
        return F.linear(x.to(self.compute_dtype), self.weight.to(self.compute_dtype),
                        None if self.bias is None else self.bias.to(self.compute_dtype))

class Qwen2RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(d))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        h = hidden_states.to(torch.float32)
        h = h * torch.rsqrt(h.pow(2).mean(-1, keepdim=True) + self.variance_epsilon)
        return self.weight * h.to(hidden_states.dtype)

class Qwen2DecoderLayer(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.input_layernorm = Qwen2RMSNorm(d)
        self.mlp = Linear4bit(d, d, bias=False)

    def forward(self, x):
        return x + self.mlp(self.input_layernorm(x)).to(x.dtype)

class Qwen2ForCausalLM(nn.Module):
    def __init__(self, vocab=100, d=32):
        super().__init__()
        self.model = nn.Module()
        self.model.embed_tokens = nn.Embedding(vocab, d)
        self.model.layers = nn.ModuleList([Qwen2DecoderLayer(d)])
        self.model.norm = Qwen2RMSNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids):
        h = self.model.embed_tokens(input_ids)
        for layer in self.model.layers:
            h = layer(h)
        return self.lm_head(self.model.norm(h))

def prepare_model_for_kbit_training(model):
    for name, module in model.named_modules():
        if "norm" in name:
            module.to(torch.float32)               # the upcast the PR removes
    return model

model = Qwen2ForCausalLM().to(torch.float16)       # from_pretrained(..., quantization_config=BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_compute_dtype=torch.float16), torch_dtype=torch.float16)
model = prepare_model_for_kbit_training(model)
input_ids = torch.randint(0, 100, (2, 8))
'''
CELL = '''
with torch.no_grad():
    logits = model(input_ids)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "should be the same")
CULPRITS = ["model.model.norm"]
FIX = "namespace"
REFERENCE_FIX = '''
for name, module in model.named_modules():
    if "norm" in name:
        module.to(torch.float16)
'''
REFERENCE_EDIT = None
CLEAN = False
