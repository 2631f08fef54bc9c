"""LoRA adapter loaded on an 8-bit model: the float32 lora_A receives the model's fp16 hidden states during generate.

Source: https://github.com/huggingface/peft/issues/101
The user loaded `AutoModelForCausalLM.from_pretrained(model_id, load_in_8bit=True, device_map='auto')`
then `model = PeftModelForCausalLM.from_pretrained(model, peft_model_id)` and got "expected
scalar type Half but found Float" in `F.linear` on the first `model.generate(...)`. The int8
model runs its activations in fp16, while the LoRA matrices are created/loaded in float32 and
peft's 8-bit LoRA layer fed `x` straight into `lora_A`. The user's fix: add `.half()` to the
`PeftModelForCausalLM.from_pretrained(...)` line (peft later cast `x` to float and the LoRA
output back to the result dtype in `Linear8bitLt.forward`).
Stand-ins: an OPT-like decoder whose projections are 8-bit linears (int8 weight + fp16 row scale,
dequantized to fp16), peft 0.1's `Linear8bitLt` LoRA layer and `PeftModelForCausalLM` wrapper,
greedy generate; CPU (dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import math
import torch
from torch import nn
import torch.nn.functional as F

class Linear8bitLt(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        w = torch.randn(out_features, in_features) * 0.05
        scb = w.abs().amax(1, keepdim=True) / 127
        self.register_buffer("CB", (w / scb).round().to(torch.int8))
        self.register_buffer("SCB", scb.half())
        self.bias = nn.Parameter(torch.zeros(out_features, dtype=torch.float16))

    def forward(self, x):
        return F.linear(x, self.CB.to(x.dtype) * self.SCB.to(x.dtype), self.bias)    # bnb.matmul(x, CB, state)

class LoraLinear8bitLt(Linear8bitLt):
    def __init__(self, in_features, out_features, r=8, lora_alpha=16):
        super().__init__(in_features, out_features)
        self.r = r
        self.scaling = lora_alpha / r
        self.lora_dropout = nn.Identity()
        self.lora_A = nn.Linear(in_features, r, bias=False)          # float32
        self.lora_B = nn.Linear(r, out_features, bias=False)
        nn.init.kaiming_uniform_(self.lora_A.weight, a=math.sqrt(5))
        nn.init.zeros_(self.lora_B.weight)
        self.disable_adapters = False

    def forward(self, x):
        result = super().forward(x)
        if self.disable_adapters:
            return result
        elif self.r > 0:
            output = self.lora_B(self.lora_A(self.lora_dropout(x))) * self.scaling
            result += output
        return result

class OPTDecoderLayer(nn.Module):
    def __init__(self, d, lora=False):
        super().__init__()
        cls = LoraLinear8bitLt if lora else Linear8bitLt
        self.self_attn_layer_norm = nn.LayerNorm(d).half()
        self.q_proj = cls(d, d)
        self.v_proj = cls(d, d)
        self.fc1 = Linear8bitLt(d, 4 * d)
        self.fc2 = Linear8bitLt(4 * d, d)

    def forward(self, h):
        x = self.self_attn_layer_norm(h)
        h = h + self.v_proj(x) * torch.sigmoid(self.q_proj(x))
        return h + self.fc2(torch.relu(self.fc1(h)))

class OPTForCausalLM(nn.Module):
    def __init__(self, vocab=64, d=32, n_layers=2, lora=False):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d).half()
        self.layers = nn.ModuleList([OPTDecoderLayer(d, lora) for _ in range(n_layers)])
        self.lm_head = nn.Linear(d, vocab, bias=False).half()

    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = layer(h)
        return self.lm_head(h)

    @torch.no_grad()
    def generate(self, input_ids, max_new_tokens=4):
        for _ in range(max_new_tokens):
            nxt = self(input_ids)[:, -1].float().argmax(-1, keepdim=True)
            input_ids = torch.cat([input_ids, nxt], dim=-1)
        return input_ids

class AutoModelForCausalLM:
    @staticmethod
    def from_pretrained(model_id, load_in_8bit=False, device_map=None):
        return OPTForCausalLM()

class PeftModelForCausalLM(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.base_model = model

    @classmethod
    def from_pretrained(cls, model, peft_model_id):
        for layer in model.layers:                      # inject LoRA into q_proj / v_proj (target_modules)
            for name in ("q_proj", "v_proj"):
                old = getattr(layer, name)
                new = LoraLinear8bitLt(old.CB.shape[1], old.CB.shape[0])
                new.CB, new.SCB, new.bias = old.CB, old.SCB, old.bias
                setattr(layer, name, new)
        return cls(model)

    def generate(self, **kwargs):
        return self.base_model.generate(**kwargs)

model_id = "OPT-350M-Nerys-v2"
peft_model_id = "D:\\\\AI\\\\lora_test\\\\OPT-350M-Nerys-v2_lora"
model = AutoModelForCausalLM.from_pretrained(model_id, load_in_8bit=True, device_map='auto')
model = PeftModelForCausalLM.from_pretrained(model, peft_model_id)
input_ids = torch.randint(0, 64, (1, 6))           # tokenizer(input_text, return_tensors="pt").input_ids.to("cuda")
'''
CELL = '''
output = model.generate(input_ids=input_ids, max_new_tokens=4)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "should be the same")
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model = model.half()
'''
REFERENCE_EDIT = None
CLEAN = False
