"""HF Trainer + DeepSpeed ZeRO-2 in bf16 with a `load_in_8bit` model and LoRA: peft's 8-bit LoRA layer upcasts the input to float32 while DeepSpeed made the LoRA weights bf16.

Source: https://github.com/huggingface/peft/pull/874
"Fix error using deepspeed zero2 + load_in_8bit + lora": training bf16 + load_in_8bit + LoRA under
DeepSpeed ZeRO-2 failed with "expected scalar type Float but found BFloat16" in `F.linear`
(debugged with a breakpoint in `nn.Linear.forward`). peft's `Linear8bitLt` LoRA forward, when
autocast is off, did `if x.dtype != torch.float32: x = x.float()` before `lora_A`, assuming float32
adapters; DeepSpeed's bf16 engine had cast the trainable LoRA weights to bf16. The fix casts `x`
to the LoRA weight's dtype instead of forcing float32.
Stand-ins: an OPT-like model with 8-bit linears (int8 weight + scale) and peft 0.5's
`Linear8bitLt` LoRA forward, the DeepSpeed bf16 cast of the module, one training step's
forward/loss/backward; CPU (dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-code"
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
        self.register_buffer("SCB", scb)

    def forward(self, x):
        return F.linear(x, self.CB.to(x.dtype) * self.SCB.to(x.dtype))      # bnb.matmul(x, self.weight, state=self.state)

class LoraLinear8bitLt(Linear8bitLt):
    def __init__(self, in_features, out_features, r=8, lora_alpha=16):
        super().__init__(in_features, out_features)
        self.lora_A = nn.Linear(in_features, r, bias=False)
        self.lora_B = nn.Linear(r, out_features, bias=False)
        self.lora_dropout = nn.Dropout(0.05)
        self.scaling = lora_alpha / r
        nn.init.kaiming_uniform_(self.lora_A.weight, a=math.sqrt(5))
        nn.init.zeros_(self.lora_B.weight)

    def forward(self, x):
        result = super().forward(x)
        if not torch.is_autocast_enabled():
            expected_dtype = result.dtype
            if x.dtype != torch.float32:
                x = x.float()
            output = self.lora_B(self.lora_A(self.lora_dropout(x))).to(expected_dtype) * self.scaling
            result += output
        else:
            result += self.lora_B(self.lora_A(self.lora_dropout(x))) * self.scaling
        return result

class OPTDecoderLayer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.q_proj = LoraLinear8bitLt(d, d)
        self.v_proj = LoraLinear8bitLt(d, d)
        self.fc = Linear8bitLt(d, d)

    def forward(self, h):
        x = self.norm(h)
        return h + self.fc(torch.relu(self.q_proj(x) + self.v_proj(x)))

class OPTForCausalLM(nn.Module):
    def __init__(self, vocab=64, d=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([OPTDecoderLayer(d) for _ in range(2)])
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids, labels=None):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = layer(h)
        logits = self.lm_head(h)
        loss = F.cross_entropy(logits.float().view(-1, logits.shape[-1]), labels.view(-1))
        return loss, logits

model = OPTForCausalLM()                       # from_pretrained(..., load_in_8bit=True) + get_peft_model(LoRA)
for n, p in model.named_parameters():
    p.requires_grad_("lora_" in n)
model = model.to(torch.bfloat16)               # DeepSpeed ZeRO-2 engine with "bf16": {"enabled": true}
input_ids = torch.randint(0, 64, (2, 12))
labels = input_ids.clone()
'''
CELL = '''
loss, _ = model(input_ids, labels=labels)
loss.backward()
'''
EXPECT_ERROR = ("same dtype", "expected scalar type")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            if x.dtype != torch.float32:\n                x = x.float()\n",
                  "            x = x.to(self.lora_A.weight.dtype)\n")
CLEAN = False
