"""Look-alike: LoRA adapters in float32 on a bfloat16 base model, as PEFT makes them.

Source: https://github.com/huggingface/peft/issues/2421
Since PEFT 0.11 (`autocast_adapter_dtype=True`, the default), LoRA weights are cast to float32
when the base model is float16/bfloat16: "When LoRA is loaded, by default, it is always cast to
float32 because the performance will be better with higher precision." Each LoRA layer casts its
input to the adapter's dtype, and the maintainers discourage `model.to(torch.bfloat16)` after
`get_peft_model`. The forward runs: no warning may be reported, and no cast of the adapters.
Stand-in: PEFT's LoRA `Linear` structure (`base_layer`, `lora_A`/`lora_B` ModuleDicts per adapter,
the input cast) around a small bfloat16 MLP.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class LoraLinear(nn.Module):
    def __init__(self, base_layer, r=4, lora_alpha=8):
        super().__init__()
        self.base_layer = base_layer
        self.lora_A = nn.ModuleDict({"default": nn.Linear(base_layer.in_features, r, bias=False)})
        self.lora_B = nn.ModuleDict({"default": nn.Linear(r, base_layer.out_features, bias=False)})
        self.scaling = {"default": lora_alpha / r}

    def forward(self, x):
        result = self.base_layer(x)
        torch_result_dtype = result.dtype
        lora_A, lora_B = self.lora_A["default"], self.lora_B["default"]
        x = x.to(lora_A.weight.dtype)  # PEFT's _cast_input_dtype
        result = result + lora_B(lora_A(x)) * self.scaling["default"]
        return result.to(torch_result_dtype)

base = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).to(torch.bfloat16)
base[0], base[2] = LoraLinear(base[0]), LoraLinear(base[2])
for layer in (base[0], base[2]):  # what autocast_adapter_dtype does
    layer.lora_A.to(torch.float32)
    layer.lora_B.to(torch.float32)
model = base
inputs = torch.randn(8, 16, dtype=torch.bfloat16)
'''
CELL = '''
logits = model(inputs)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
