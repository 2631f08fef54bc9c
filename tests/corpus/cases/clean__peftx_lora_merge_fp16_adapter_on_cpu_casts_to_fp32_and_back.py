"""Look-alike: PEFT merges fp16 LoRA weights on the CPU by computing the delta in float32 and casting back.

Source: https://github.com/huggingface/peft/blob/main/src/peft/tuners/lora/layer.py
`Linear.get_delta_weight` notes "In case users wants to merge the adapter weights that are in
(b)float16 while being on CPU, we need to cast the weights to float32, perform the merge and then cast
back to (b)float16 because some CPUs have slow bf16/fp16 matmuls": with
`cast_to_fp32 = device.type == "cpu" and dtype in (float16, bfloat16)` it multiplies
`weight_B.float() @ weight_A.float()`, casts the delta back to the adapter dtype and adds it into the
fp16 base weight (`merge_and_unload()` for export, model kept on the CPU). Float32 intermediates
next to an fp16 model, by design; nothing to report.
Stand-ins: a tiny fp16 decoder, peft's LoRA `Linear` (merge / get_delta_weight) and
`merge_and_unload`.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def transpose(weight, fan_in_fan_out):
    return weight.T if fan_in_fan_out else weight

class Linear(nn.Module):
    """peft.tuners.lora.Linear (merge path)."""
    def __init__(self, base_layer, adapter_name="default", r=8, lora_alpha=16, fan_in_fan_out=False):
        super().__init__()
        self.base_layer = base_layer
        self.fan_in_fan_out = fan_in_fan_out
        self.lora_A = nn.ModuleDict({adapter_name: nn.Linear(base_layer.in_features, r, bias=False)})
        self.lora_B = nn.ModuleDict({adapter_name: nn.Linear(r, base_layer.out_features, bias=False)})
        nn.init.normal_(self.lora_B[adapter_name].weight, std=0.02)
        self.scaling = {adapter_name: lora_alpha / r}
        self.active_adapter = adapter_name
        self.merged_adapters = []

    def get_delta_weight(self, adapter):
        device = self.lora_B[adapter].weight.device
        dtype = self.lora_B[adapter].weight.dtype
        # (b)float16 on CPU: cast to float32, merge, cast back (slow CPU fp16/bf16 matmuls)
        cast_to_fp32 = device.type == "cpu" and (dtype == torch.float16 or dtype == torch.bfloat16)
        weight_A = self.lora_A[adapter].weight
        weight_B = self.lora_B[adapter].weight
        if cast_to_fp32:
            weight_A = weight_A.float()
            weight_B = weight_B.float()
        output_tensor = transpose(weight_B @ weight_A, self.fan_in_fan_out) * self.scaling[adapter]
        if cast_to_fp32:
            output_tensor = output_tensor.to(dtype=dtype)
            # cast back the weights
            self.lora_A[adapter].weight.data = weight_A.to(dtype)
            self.lora_B[adapter].weight.data = weight_B.to(dtype)
        return output_tensor

    def merge(self):
        base_layer = self.base_layer
        delta_weight = self.get_delta_weight(self.active_adapter)
        base_layer.weight.data += delta_weight
        self.merged_adapters.append(self.active_adapter)

    def forward(self, x):
        result = self.base_layer(x)
        if not self.merged_adapters:
            a = self.active_adapter
            result = result + self.lora_B[a](self.lora_A[a](x)) * self.scaling[a]
        return result

class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.q_proj = nn.Linear(d, d, bias=False)
        self.v_proj = nn.Linear(d, d, bias=False)
        self.mlp = nn.Linear(d, d)

    def forward(self, h):
        return h + self.mlp(torch.tanh(self.q_proj(h) + self.v_proj(h)))

class TinyCausalLM(nn.Module):
    def __init__(self, vocab=100, d=32, n_layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([Block(d) for _ in range(n_layers)])
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = layer(h)
        return self.lm_head(h)

class PeftModel(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.base_model = model
        for layer in model.layers:
            layer.q_proj = Linear(layer.q_proj)
            layer.v_proj = Linear(layer.v_proj)

    def merge_and_unload(self):
        for layer in self.base_model.layers:
            for name in ("q_proj", "v_proj"):
                lora_layer = getattr(layer, name)
                lora_layer.merge()
                setattr(layer, name, lora_layer.base_layer)
        return self.base_model

base_model = TinyCausalLM().half()                  # torch_dtype=torch.float16, device_map="cpu"
model = PeftModel(base_model).half()                # PeftModel.from_pretrained(base_model, adapter_dir)
input_ids = torch.randint(0, 100, (1, 10))
'''
CELL = '''
merged = model.merge_and_unload()
with torch.no_grad():
    logits = merged(input_ids)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
