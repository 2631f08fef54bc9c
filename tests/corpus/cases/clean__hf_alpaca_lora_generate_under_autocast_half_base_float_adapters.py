"""Look-alike: alpaca-lora inference with a half-precision base model and float32 LoRA weights, run under `torch.autocast` as the thread recommends.

Source: https://github.com/tloen/alpaca-lora/issues/203
Users hit "expected scalar type Half but found Float" when the LoRA A/B matrices (float32) meet the fp16 base
model's activations; the workaround given in the thread is to wrap tokenization and `model.generate(...)` in
`with torch.autocast("cuda"):`, under which the matmuls run in the autocast dtype whatever the weights' dtypes.
The mixed-dtype layout is deliberate and the cell runs. Stand-ins: a LoRA Linear (base weight in the low
precision, lora_A/lora_B float32) in a tiny causal LM with a greedy generate; CPU autocast with bfloat16
plays CUDA autocast with float16.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class LoraLinear(nn.Module):
    def __init__(self, in_f, out_f, r=4, lora_alpha=16):
        super().__init__()
        self.base_layer = nn.Linear(in_f, out_f, bias=False)
        self.lora_A = nn.Linear(in_f, r, bias=False)
        self.lora_B = nn.Linear(r, out_f, bias=False)
        nn.init.normal_(self.lora_B.weight, std=0.02)
        self.scaling = lora_alpha / r
    def forward(self, x):
        return self.base_layer(x) + self.lora_B(self.lora_A(x)) * self.scaling

class LlamaForCausalLM(nn.Module):
    def __init__(self, vocab_size=32000, dim=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, dim)
        self.q_proj = LoraLinear(dim, dim)
        self.v_proj = LoraLinear(dim, dim)
        self.lm_head = nn.Linear(dim, vocab_size, bias=False)
    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        h = h + torch.tanh(self.q_proj(h)) * torch.sigmoid(self.v_proj(h))
        return self.lm_head(h)
    @torch.no_grad()
    def generate(self, input_ids, max_new_tokens=4):
        for _ in range(max_new_tokens):
            next_tok = self(input_ids)[:, -1].argmax(-1, keepdim=True)
            input_ids = torch.cat([input_ids, next_tok], dim=-1)
        return input_ids

model = LlamaForCausalLM()
low = torch.bfloat16                                  # load_in_8bit / torch_dtype=torch.float16 on the GPU
model.embed_tokens.to(low); model.lm_head.to(low)
for proj in (model.q_proj, model.v_proj):
    proj.base_layer.to(low)                           # PeftModel.from_pretrained keeps lora_A/lora_B in float32
model.eval()
prompt_ids = torch.randint(0, 32000, (1, 12))         # tokenizer(prompt, return_tensors="pt")["input_ids"]
'''
CELL = '''
with torch.autocast("cpu", dtype=torch.bfloat16):
    input_ids = prompt_ids
    generation_output = model.generate(input_ids=input_ids, max_new_tokens=4)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
