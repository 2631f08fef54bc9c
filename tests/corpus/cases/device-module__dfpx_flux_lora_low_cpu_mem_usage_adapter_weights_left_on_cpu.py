"""FluxPipeline on cuda + `load_lora_weights(..., low_cpu_mem_usage=True)`: the LoRA A/B weights are assigned from the CPU state dict and stay on the CPU.

Source: https://github.com/huggingface/diffusers/pull/9510
While adding `low_cpu_mem_usage` to LoRA loading, the maintainer ran
`FluxPipeline.from_pretrained(..., torch_dtype=torch.bfloat16).to("cuda")` then
`pipe.load_lora_weights("TheLastBen/The_Hound", weight_name=..., low_cpu_mem_usage=True)` and the call
failed in peft's `lora/layer.py` forward (`result = result + lora_B(lora_A(dropout(x))) * scaling`)
with a device mismatch. The cause, stated in the linked fix (huggingface/peft#2113, "FIX
low_cpu_mem_usage consolidates devices"): the adapter layers are created empty (meta) and the state
dict is loaded with `assign=True`, so "when the model is on GPU and the `state_dict` on CPU, the
adapter weight will be on CPU after loading, when it should be GPU"; the fix moves each adapter to
the device of its base layer after loading (`_move_adapter_to_device_of_base_layer`).
Stand-ins: peft's LoRA Linear wrapper, `inject_adapter_in_model` and `set_peft_model_state_dict`,
a tiny Flux transformer and pipeline with diffusers' `load_lora_weights`.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import re
from types import SimpleNamespace
import torch
import torch.nn as nn

class LoraLinear(nn.Module):                       # peft.tuners.lora.layer.Linear (stand-in)
    def __init__(self, base_layer):
        super().__init__()
        self.base_layer = base_layer
        self.lora_A, self.lora_B = nn.ModuleDict(), nn.ModuleDict()
        self.scaling, self.active_adapters = {}, []

    def update_layer(self, adapter_name, r, lora_alpha, low_cpu_mem_usage=False):
        device = "meta" if low_cpu_mem_usage else self.base_layer.weight.device
        self.lora_A[adapter_name] = nn.Linear(self.base_layer.in_features, r, bias=False, device=device)
        self.lora_B[adapter_name] = nn.Linear(r, self.base_layer.out_features, bias=False, device=device)
        self.scaling[adapter_name] = lora_alpha / r
        self.active_adapters.append(adapter_name)

    def _move_adapter_to_device_of_base_layer(self, adapter_name):
        device = self.base_layer.weight.device
        self.lora_A[adapter_name].to(device)
        self.lora_B[adapter_name].to(device)

    def forward(self, x):
        result = self.base_layer(x)
        for name in self.active_adapters:
            result = result + self.lora_B[name](self.lora_A[name](x)) * self.scaling[name]
        return result

def inject_adapter_in_model(model, target_modules, adapter_name, r, lora_alpha, low_cpu_mem_usage=False):
    for name, module in list(model.named_modules()):
        for child_name, child in list(module.named_children()):
            if child_name in target_modules and isinstance(child, nn.Linear):
                wrapped = LoraLinear(child)
                wrapped.update_layer(adapter_name, r, lora_alpha, low_cpu_mem_usage)
                setattr(module, child_name, wrapped)

def set_peft_model_state_dict(model, peft_model_state_dict, adapter_name, low_cpu_mem_usage=False):
    state_dict = {re.sub(r"\\.lora_(A|B)\\.", rf".lora_\\1.{adapter_name}.", k): v
                  for k, v in peft_model_state_dict.items()}
    if low_cpu_mem_usage:
        model.load_state_dict(state_dict, strict=False, assign=True)
    else:
        model.load_state_dict(state_dict, strict=False)

class FluxSingleTransformerBlock(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.proj_mlp = nn.Linear(dim, dim)
        self.proj_out = nn.Linear(dim, dim)
    def forward(self, hidden_states):
        return hidden_states + self.proj_out(torch.nn.functional.gelu(self.proj_mlp(hidden_states)))

class FluxTransformer2DModel(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.x_embedder = nn.Linear(16, dim)
        self.single_transformer_blocks = nn.ModuleList([FluxSingleTransformerBlock(dim) for _ in range(2)])
        self.proj_out = nn.Linear(dim, 16)
    def forward(self, hidden_states, timestep):
        h = self.x_embedder(hidden_states)
        for block in self.single_transformer_blocks:
            h = block(h)
        return self.proj_out(h)

class FluxPipeline:
    def __init__(self, transformer):
        self.transformer = transformer
    @classmethod
    def from_pretrained(cls, name, torch_dtype=torch.float32):
        return cls(FluxTransformer2DModel())
    def to(self, device):
        self.transformer.to(device)
        self._execution_device = torch.device(device)
        return self

    def load_lora_weights(self, state_dict, adapter_name="default_0", low_cpu_mem_usage=False):
        transformer_sd = {k[len("transformer."):]: v for k, v in state_dict.items() if k.startswith("transformer.")}
        rank = next(v for k, v in transformer_sd.items() if "lora_A" in k).shape[0]
        targets = {k.split(".lora_")[0].split(".")[-1] for k in transformer_sd}
        inject_adapter_in_model(self.transformer, targets, adapter_name, rank, rank, low_cpu_mem_usage)
        set_peft_model_state_dict(self.transformer, transformer_sd, adapter_name, low_cpu_mem_usage)

    @torch.no_grad()
    def __call__(self, prompt, num_inference_steps=3, height=32, width=32):
        latents = torch.randn(1, (height // 8) * (width // 8), 16, device=self._execution_device)
        for t in range(num_inference_steps):
            latents = latents - 0.1 * self.transformer(latents, t)
        return SimpleNamespace(images=latents)

pipe = FluxPipeline.from_pretrained("black-forest-labs/FLUX.1-dev", torch_dtype=torch.bfloat16).to("cuda:0")
# "TheLastBen/The_Hound", weight_name="sandor_clegane_single_layer.safetensors": read on the CPU
lora_state_dict = {f"transformer.single_transformer_blocks.{i}.proj_out.lora_{ab}.weight": torch.randn(shape)
                   for i in range(2) for ab, shape in (("A", (4, 32)), ("B", (32, 4)))}
prompt = "sandor clegane drinking in a pub"
'''
CELL = '''
pipe.load_lora_weights(lora_state_dict, low_cpu_mem_usage=True)
image = pipe(prompt=prompt, num_inference_steps=3, height=32, width=32).images
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["set_peft_model_state_dict"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        model.load_state_dict(state_dict, strict=False, assign=True)
""", """        model.load_state_dict(state_dict, strict=False, assign=True)
        for module in model.modules():
            if hasattr(module, "_move_adapter_to_device_of_base_layer"):
                module._move_adapter_to_device_of_base_layer(adapter_name)
""")
CLEAN = False
