"""LoRA via the adapters library on a bf16 model: the new adapter weights are float32.

Source: https://github.com/adapter-hub/adapters/issues/766
The user loaded the model in bfloat16, then added a LoRA adapter; the adapter's A/B matrices were
initialized in float32 (the default dtype), so the first training step failed in the LoRA
projection with a mat1/mat2 dtype mismatch. "Adapters-initialized tensors sometimes conflict with
model dtypes, no way to set automatically." The library is reduced to a LoRA wrapper that
creates its matrices after the model was cast; run on the CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r=4, alpha=8):
        super().__init__()
        self.base = base
        self.lora_A = nn.Linear(base.in_features, r, bias=False)     # default dtype: float32
        self.lora_B = nn.Linear(r, base.out_features, bias=False)
        nn.init.zeros_(self.lora_B.weight)
        self.scaling = alpha / r

    def forward(self, x):
        return self.base(x) + self.lora_B(self.lora_A(x)) * self.scaling

class TinyEncoder(nn.Module):
    def __init__(self, vocab=50, dim=16):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.query = nn.Linear(dim, dim)
        self.value = nn.Linear(dim, dim)
        self.classifier = nn.Linear(dim, 2)

    def forward(self, input_ids):
        h = self.embed(input_ids)
        h = torch.softmax(self.query(h) @ h.transpose(1, 2), -1) @ self.value(h)
        return self.classifier(h.mean(1))

model = TinyEncoder().to(torch.bfloat16)       # from_pretrained(..., torch_dtype=torch.bfloat16)
model.query = LoRALinear(model.query)           # model.add_adapter("lora", config=LoRAConfig())
model.value = LoRALinear(model.value)
input_ids = torch.randint(0, 50, (2, 6))
'''
CELL = '''
logits = model(input_ids)
'''
EXPECT_ERROR = ("must have the same dtype", "to have the same dtype")
CULPRITS = ["model.query.lora_A"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to(torch.bfloat16)
'''
REFERENCE_EDIT = None
CLEAN = False
