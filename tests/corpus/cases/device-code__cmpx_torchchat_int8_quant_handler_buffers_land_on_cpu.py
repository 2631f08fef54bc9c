"""torchchat `linear:int8` quantization of a model that lives on the GPU: the quantized int8 weights and scales are created without a device and land on the CPU.

Source: https://github.com/pytorch/torchchat/pull/206
"fix device linear:int8 quant": quantizing with `--quantize '{"linear:int8": ...}'` on CUDA (or MPS)
failed because the int8 handler built the replacement `WeightOnlyInt8Linear` buffers and the
per-channel scales without a device; the PR "add[s a] device arg so that we can land the weights and
scales in the right place" and enables the CUDA/MPS unit tests.
Stand-in: a 2-layer feed-forward already on cuda:0; the handler (as in gpt-fast/torchchat's
`WeightOnlyInt8QuantHandler`) computes the quantized state dict from the CUDA weights, swaps the
`nn.Linear` layers for `WeightOnlyInt8Linear` modules whose buffers are created on the default device,
and loads the state dict into them (the values land on the buffers' CPU device, as `load_state_dict`'s
copy does; written as assignments because fake CUDA tensors cannot be copied into).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class WeightOnlyInt8Linear(nn.Module):
    def __init__(self, in_features, out_features, device=None):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        self.register_buffer("weight", torch.zeros((out_features, in_features), dtype=torch.int8, device=device))
        self.register_buffer("scales", torch.ones(out_features, device=device))

    def forward(self, input):
        return F.linear(input, self.weight.to(dtype=input.dtype)) * self.scales

def replace_linear_weight_only_int8_per_channel(module, device=None):
    for name, child in module.named_children():
        if isinstance(child, nn.Linear):
            setattr(module, name, WeightOnlyInt8Linear(child.in_features, child.out_features))
        else:
            replace_linear_weight_only_int8_per_channel(child, device)

class WeightOnlyInt8QuantHandler:
    def __init__(self, mod, device="cpu"):
        self.mod = mod
        self.device = device

    @torch.no_grad()
    def create_quantized_state_dict(self):
        cur_state_dict = self.mod.state_dict()
        for fqn, mod in self.mod.named_modules():
            if isinstance(mod, nn.Linear):
                w = mod.weight.float()
                scales = w.abs().amax(dim=1).clamp(min=1e-5) / 127
                cur_state_dict[f"{fqn}.weight"] = torch.clamp(torch.round(w / scales.unsqueeze(-1)), -128, 127).to(torch.int8)
                cur_state_dict[f"{fqn}.scales"] = scales
        return cur_state_dict

    def quantized_model(self):
        model_updated_state_dict = self.create_quantized_state_dict()
        replace_linear_weight_only_int8_per_channel(self.mod, self.device)
        for key, value in model_updated_state_dict.items():          # load_state_dict: values land on each buffer's device
            mod_name, _, attr = key.rpartition(".")
            sub = self.mod.get_submodule(mod_name)
            setattr(sub, attr, value.to(getattr(sub, attr).device))
        return self.mod

class FeedForward(nn.Module):
    def __init__(self, dim=32, hidden=64):
        super().__init__()
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)

    def forward(self, x):
        return self.w2(F.silu(self.w1(x)))

device = "cuda:0"
model = FeedForward().to(device)
model = WeightOnlyInt8QuantHandler(model, device).quantized_model()
x = torch.randn(2, 5, 32, device=device)
'''
CELL = '''
with torch.no_grad():
    y = model(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.w1"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("setattr(module, name, WeightOnlyInt8Linear(child.in_features, child.out_features))",
                  "setattr(module, name, WeightOnlyInt8Linear(child.in_features, child.out_features, device=device))")
CLEAN = False
