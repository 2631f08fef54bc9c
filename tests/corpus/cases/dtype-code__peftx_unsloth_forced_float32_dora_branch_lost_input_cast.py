"""Unsloth forced-float32 LoRA forward drops PEFT's input cast: DoRA layers get fp16 activations against fp32 `lora_A`.

Source: https://github.com/unslothai/unsloth-zoo/pull/1229
"DoRA under forced float32 crashed with `expected mat1 and mat2 to have the same dtype, but got:
c10::Half != float`, because the compiler deleted PEFT's input cast on a branch that still needed it."
`patch_lora_forwards` rewrites PEFT's `Linear.forward`; under `UNSLOTH_FORCE_FLOAT32` its
`lora_forward` casts `x` itself and the line `x = self._cast_input_dtype(x, lora_A.weight.dtype)` was
removed - right for the vanilla branch, wrong for the LoRA-variant (DoRA) branch, which is handed the
fp16 `x` directly. The fix keeps the cast for the variant branch (vanilla LoRA unchanged). Reported in
unslothai/unsloth#4127 (Gemma3 + `use_dora=True` on a T4).
Stand-ins (CPU; dtype bug): a tiny fp16 Gemma-like decoder, peft's LoRA `Linear` with fp32 adapters,
`DoraLinearVariant`/`DoraLinearLayer`, and unsloth's compiled forced-float32 forward before the fix.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

class DoraLinearLayer(nn.Module):
    def __init__(self, base_layer, lora_A, lora_B, scaling):
        super().__init__()
        weight = base_layer.weight.float()
        lora_weight = (lora_B.weight @ lora_A.weight)
        self.weight = nn.Parameter((weight + scaling * lora_weight).norm(p=2, dim=1))

    def get_weight_norm(self, weight, lora_weight, scaling):
        return (weight + scaling * lora_weight).norm(p=2, dim=1)

    def forward(self, x, *, lora_A, lora_B, scaling, base_layer, base_result=None):
        x_eye = torch.eye(lora_A.weight.shape[1], device=lora_A.weight.device, dtype=x.dtype)
        lora_weight = lora_B(lora_A(x_eye)).T
        magnitude = self.weight
        weight = base_layer.weight.to(x.dtype)
        weight_norm = self.get_weight_norm(weight, lora_weight.detach(), scaling).detach()
        mag_norm_scale = (magnitude / weight_norm).view(1, -1)
        lora_result = lora_B(lora_A(x))
        return (mag_norm_scale - 1) * base_result + mag_norm_scale * lora_result * scaling

class DoraLinearVariant:
    @staticmethod
    def forward(module, active_adapter, x, result):
        lora_A = module.lora_A[active_adapter]
        lora_B = module.lora_B[active_adapter]
        scaling = module.scaling[active_adapter]
        return result + module.lora_magnitude_vector[active_adapter](
            x, lora_A=lora_A, lora_B=lora_B, scaling=scaling, base_layer=module.base_layer, base_result=result)

def lora_forward(result, lora_A, lora_B, dropout, x, scaling):
    """unsloth's compiled vanilla-LoRA path: casts x to the adapter dtype itself."""
    xA = dropout(x).to(lora_A.weight.dtype) @ lora_A.weight.t()
    return result + (xA @ lora_B.weight.t()).to(result.dtype) * scaling

class Linear(nn.Module):
    """peft.tuners.lora.Linear, forward replaced by unsloth's COMPILED_LORA_FORWARD_forced_float32."""
    def __init__(self, base_layer, adapter_name="default", r=8, lora_alpha=16, use_dora=False):
        super().__init__()
        self.base_layer = base_layer
        in_f, out_f = base_layer.in_features, base_layer.out_features
        self.lora_A = nn.ModuleDict({adapter_name: nn.Linear(in_f, r, bias=False)})     # fp32 (autocast_adapter_dtype)
        self.lora_B = nn.ModuleDict({adapter_name: nn.Linear(r, out_f, bias=False)})
        nn.init.normal_(self.lora_B[adapter_name].weight, std=0.01)
        self.lora_dropout = nn.ModuleDict({adapter_name: nn.Identity()})
        self.scaling = {adapter_name: lora_alpha / r}
        self.lora_magnitude_vector = nn.ModuleDict()
        self.lora_variant = {}
        if use_dora:
            self.lora_magnitude_vector[adapter_name] = DoraLinearLayer(
                base_layer, self.lora_A[adapter_name], self.lora_B[adapter_name], self.scaling[adapter_name])
            self.lora_variant[adapter_name] = DoraLinearVariant()
        self.active_adapters = [adapter_name]

    def _cast_input_dtype(self, x, dtype):
        return x.to(dtype)

    def forward(self, x, *args, **kwargs):
        result = self.base_layer(x, *args, **kwargs)
        torch_result_dtype = result.dtype
        lora_A_keys = self.lora_A.keys()
        for active_adapter in self.active_adapters:
            if active_adapter not in lora_A_keys:
                continue
            lora_A = self.lora_A[active_adapter]
            lora_B = self.lora_B[active_adapter]
            dropout = self.lora_dropout[active_adapter]
            scaling = self.scaling[active_adapter]
            if active_adapter not in self.lora_variant:  # vanilla LoRA
                return lora_forward(result, lora_A, lora_B, dropout, x, scaling)
            else:
                result = self.lora_variant[active_adapter].forward(
                    self, active_adapter=active_adapter, x=x, result=result)
        result = result.to(torch_result_dtype)
        return result

class Gemma3Attention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.q_proj = nn.Linear(d, d, bias=False)
        self.k_proj = nn.Linear(d, d, bias=False)
        self.v_proj = nn.Linear(d, d, bias=False)
        self.o_proj = nn.Linear(d, d, bias=False)

    def forward(self, h):
        q, k, v = self.q_proj(h), self.k_proj(h), self.v_proj(h)
        att = torch.softmax((q @ k.transpose(-1, -2)).float() / q.shape[-1] ** 0.5, dim=-1).to(h.dtype)
        return self.o_proj(att @ v)

class Gemma3ForCausalLM(nn.Module):
    def __init__(self, vocab=100, d=32, n_layers=2):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([Gemma3Attention(d) for _ in range(n_layers)])
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = h + layer(h)
        return self.lm_head(h)

def get_peft_model(model, r=8, lora_alpha=16, use_dora=False,
                   target_modules=("q_proj", "k_proj", "v_proj", "o_proj")):
    for layer in model.layers:
        for name in target_modules:
            setattr(layer, name, Linear(getattr(layer, name), r=r, lora_alpha=lora_alpha, use_dora=use_dora))
    return model

model = Gemma3ForCausalLM().half()                  # T4: no bfloat16, UNSLOTH_FORCE_FLOAT32=1
model = get_peft_model(model, r=8, lora_alpha=16, use_dora=True)
input_ids = torch.randint(0, 100, (2, 12))
'''
CELL = '''
with torch.no_grad():
    logits = model(input_ids)
'''
EXPECT_ERROR = ("same dtype", "expected scalar type", "should be the same")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """            else:
                result = self.lora_variant[active_adapter].forward(""",
    """            else:
                x = self._cast_input_dtype(x, lora_A.weight.dtype)
                result = self.lora_variant[active_adapter].forward(""",
)
CLEAN = False
