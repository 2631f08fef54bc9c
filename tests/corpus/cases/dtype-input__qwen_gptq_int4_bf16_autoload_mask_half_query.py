"""Qwen-14B-Chat quantized with GPTQ, then `model.chat`: the model loads in bf16, the quantized layers compute in fp16.

Source: https://github.com/QwenLM/Qwen/issues/1276
After `run_gptq.py`, `model.chat` failed with "Expected attn_mask dtype to be bool or to match query
dtype, but got attn_mask.dtype: c10::BFloat16 and query.dtype: c10::Half instead". Maintainer: "As
quantized models should run in fp16 ... you should pass `fp16=True` to
`AutoModelForCausalLM.from_pretrained`": without it the non-quantized parts (embeddings, norms) were
loaded in bf16, the additive attention mask is built in that dtype, while the GPTQ `QuantLinear`
kernels return fp16 queries. Stand-in: an int4-style QuantLinear (integer weights, fp16 scales,
fp16 compute), a Qwen block that builds its mask from the embedding dtype, one decoding call; run on
the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class QuantLinear(nn.Module):
    """Stand-in for auto_gptq's QuantLinear: int weights + fp16 scales, fp16 matmul."""
    def __init__(self, infeatures, outfeatures):
        super().__init__()
        w = torch.randn(outfeatures, infeatures)
        scales = w.abs().amax(1, keepdim=True) / 7
        self.register_buffer("qweight", (w / scales).round().clamp(-8, 7).to(torch.int8))
        self.register_buffer("scales", scales.half())
        self.register_buffer("bias", torch.zeros(outfeatures, dtype=torch.float16))

    def forward(self, x):
        w = self.qweight.half() * self.scales
        return F.linear(x.half(), w, self.bias)

class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight

class QWenAttention(nn.Module):
    def __init__(self, dim=32, heads=4):
        super().__init__()
        self.heads, self.head_dim = heads, dim // heads
        self.c_attn = QuantLinear(dim, 3 * dim)
        self.c_proj = QuantLinear(dim, dim)

    def forward(self, h, attention_mask):
        b, s, _ = h.shape
        q, k, v = self.c_attn(h).split(h.shape[-1], dim=2)
        q, k, v = (t.view(b, s, self.heads, self.head_dim).transpose(1, 2) for t in (q, k, v))
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=attention_mask)
        return self.c_proj(out.transpose(1, 2).reshape(b, s, -1))

class QWenModel(nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.wte = nn.Embedding(vocab, dim)
        self.ln_1 = RMSNorm(dim)
        self.attn = QWenAttention(dim)
        self.ln_f = RMSNorm(dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, input_ids):
        h = self.wte(input_ids)
        s = input_ids.shape[1]
        causal = torch.ones(s, s, dtype=torch.bool).tril()
        attention_mask = torch.zeros(s, s, dtype=h.dtype).masked_fill(~causal, torch.finfo(h.dtype).min)
        h = h + self.attn(self.ln_1(h), attention_mask).to(h.dtype)
        return self.lm_head(self.ln_f(h))

# AutoModelForCausalLM.from_pretrained(quantized_dir, device_map="auto", trust_remote_code=True):
# config.bf16 auto-selected, so the non-quantized weights are loaded in bfloat16
model = QWenModel()
for m in (model.wte, model.ln_1, model.ln_f, model.lm_head):
    m.to(torch.bfloat16)
input_ids = torch.randint(0, 100, (1, 6))
'''
CELL = '''
with torch.no_grad():
    logits = model(input_ids)
'''
EXPECT_ERROR = "Expected attn_mask dtype to be bool"
CULPRITS = ["model.wte"]
FIX = "namespace"
REFERENCE_FIX = '''
model.half()
'''
REFERENCE_EDIT = None
CLEAN = False
