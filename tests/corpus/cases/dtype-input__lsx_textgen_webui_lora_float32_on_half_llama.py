"""text-generation-webui: a LoRA added to a 16-bit LLaMA keeps its float32 weights ("expected scalar type Float but found Half").

Source: https://github.com/oobabooga/textgen/issues/519
"RuntimeError: expected scalar type Float but found Half when using 16-bit with Lora": the webui loads
the model in float16, then `add_lora_to_model` wraps it with `PeftModel.from_pretrained(shared.model,
Path(f"loras/{lora_name}"))`; the LoRA matrices are created in float32, so the half hidden states meet
float32 `lora_A` weights on the first generation. The webui's fix in `modules/LoRA.py` casts the
wrapped model: `shared.model.half()` (when not loaded in 8 bit / on the cpu).
Stand-ins: `modules.shared`, a two-layer LLaMA-like model, peft's LoRA `Linear` and `PeftModel`; cpu, dtype only.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import math
import types
import torch
from torch import nn

class LoraLinear(nn.Linear):
    def __init__(self, base, r=8, lora_alpha=16):
        super().__init__(base.in_features, base.out_features, bias=False, dtype=base.weight.dtype)
        self.weight = base.weight
        self.lora_A = nn.Linear(base.in_features, r, bias=False)          # float32
        self.lora_B = nn.Linear(r, base.out_features, bias=False)
        nn.init.kaiming_uniform_(self.lora_A.weight, a=math.sqrt(5))
        nn.init.zeros_(self.lora_B.weight)
        self.scaling = lora_alpha / r

    def forward(self, x):
        return super().forward(x) + self.lora_B(self.lora_A(x)) * self.scaling

class LlamaLayer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.q_proj = nn.Linear(d, d, bias=False)
        self.v_proj = nn.Linear(d, d, bias=False)
        self.o_proj = nn.Linear(d, d, bias=False)

    def forward(self, h):
        return h + self.o_proj(self.v_proj(h) * torch.sigmoid(self.q_proj(h)))

class LlamaForCausalLM(nn.Module):
    def __init__(self, vocab=64, d=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([LlamaLayer(d) for _ in range(2)])
        self.lm_head = nn.Linear(d, vocab, bias=False)

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

class PeftModel(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.base_model = model

    @classmethod
    def from_pretrained(cls, model, path):
        for layer in model.layers:
            layer.q_proj = LoraLinear(layer.q_proj)
            layer.v_proj = LoraLinear(layer.v_proj)
        return cls(model)

    def generate(self, **kwargs):
        return self.base_model.generate(**kwargs)

shared = types.SimpleNamespace(model=None, lora_name=None, args=types.SimpleNamespace(load_in_8bit=False, cpu=False))

def load_model(model_name):
    return LlamaForCausalLM().half()                 # torch_dtype=torch.float16

def add_lora_to_model(lora_name):
    shared.lora_name = lora_name
    shared.model = PeftModel.from_pretrained(shared.model, f"loras/{lora_name}")

shared.model = load_model("llama-7b-hf")
add_lora_to_model("alpaca-lora-7b")
input_ids = torch.randint(0, 64, (1, 6))
'''
CELL = '''
output = shared.model.generate(input_ids=input_ids, max_new_tokens=4)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "should be the same")
CULPRITS = ["shared.model"]
FIX = "namespace"
REFERENCE_FIX = '''
shared.model.half()
'''
REFERENCE_EDIT = None
CLEAN = False
