"""Look-alike: int8 flan-t5 with float32 LoRA adapters generates fine inside `torch.cuda.amp.autocast()`.

Source: https://github.com/huggingface/peft/issues/115
"[int8 inference, lora, flan-t5-xxl] error during inference": loading the base model with
`load_in_8bit=True` and the adapter with `PeftModelForSeq2SeqLM.from_pretrained(...)` gave a dtype
error in `generate`; the poster's working setup wraps `model.generate(...)` in
`with torch.cuda.amp.autocast():`. Under autocast the fp16 activations and the float32 `lora_A` /
`lora_B` weights meet in autocast-managed linears, so the mixed dtypes are handled. Stand-ins: a
tiny T5-like encoder-decoder whose q/v projections are 8-bit linears (int8 weight + fp16 scale)
with float32 LoRA matrices, greedy generate; autocast on the CPU with float16 instead of
`torch.cuda.amp.autocast()`.
"""

SIM = "cpu"
FAMILY = "clean"
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

    def forward(self, x):
        return F.linear(x, self.CB.to(x.dtype) * self.SCB.to(x.dtype))

class LoraLinear8bitLt(Linear8bitLt):
    def __init__(self, in_features, out_features, r=8, lora_alpha=32):
        super().__init__(in_features, out_features)
        self.r, self.scaling = r, lora_alpha / r
        self.lora_A = nn.Linear(in_features, r, bias=False)
        self.lora_B = nn.Linear(r, out_features, bias=False)
        nn.init.kaiming_uniform_(self.lora_A.weight, a=math.sqrt(5))

    def forward(self, x):
        result = super().forward(x)
        output = self.lora_B(self.lora_A(x)) * self.scaling
        return result + output

class T5Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.layer_norm = nn.LayerNorm(d).half()
        self.q = LoraLinear8bitLt(d, d)
        self.v = LoraLinear8bitLt(d, d)
        self.wo = Linear8bitLt(d, d)

    def forward(self, h, ctx=None):
        x = self.layer_norm(h)
        kv = x if ctx is None else ctx
        att = torch.softmax(self.q(x) @ kv.transpose(-1, -2) / math.sqrt(x.shape[-1]), -1) @ self.v(kv)
        return h + self.wo(att)

class T5ForConditionalGeneration(nn.Module):
    def __init__(self, vocab=64, d=32):
        super().__init__()
        self.shared = nn.Embedding(vocab, d).half()
        self.encoder = T5Block(d)
        self.decoder = T5Block(d)
        self.lm_head = nn.Linear(d, vocab, bias=False).half()

    @torch.no_grad()
    def generate(self, input_ids, max_new_tokens=10):
        enc = self.encoder(self.shared(input_ids))
        dec_ids = torch.zeros(input_ids.shape[0], 1, dtype=torch.long)
        for _ in range(max_new_tokens):
            h = self.decoder(self.shared(dec_ids), ctx=enc)
            nxt = self.lm_head(h)[:, -1].float().argmax(-1, keepdim=True)
            dec_ids = torch.cat([dec_ids, nxt], -1)
        return dec_ids

class PeftModelForSeq2SeqLM(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.base_model = model

    def generate(self, **kwargs):
        return self.base_model.generate(**kwargs)

model = PeftModelForSeq2SeqLM(T5ForConditionalGeneration())     # from_pretrained(base in 8-bit, lora adapter)
inputs = {"input_ids": torch.randint(0, 64, (1, 12))}           # tokenizer(input_text, return_tensors="pt")
'''
CELL = '''
with torch.autocast("cpu", dtype=torch.float16):                 # torch.cuda.amp.autocast()
    outputs = model.generate(input_ids=inputs['input_ids'], max_new_tokens=10)
print(outputs.shape)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
