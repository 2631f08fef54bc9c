"""icefall's `convert_scaled_to_non_scaled` (export preparation) on a model already on the GPU leaves the new plain Linear layers on the CPU.

Source: https://github.com/k2-fsa/icefall/issues/757
The user built `model = Conformer(80)`, moved it with `model.to(device)` (cuda), then called
`convert_scaled_to_non_scaled(model, True)` (the step before ONNX/PNNX export that replaces
`ScaledLinear`/`ScaledConv1d` by plain `nn.Linear`/`nn.Conv1d`). Printing `named_parameters()`
afterwards showed the replaced `feed_forward.*` / `conv_module.*` weights on cpu while the
untouched ones (`self_attn.pos_bias_u`, ...) stayed on cuda:0: the converter builds new modules
without a device and copies the scaled weights into them. Running the converted model on GPU
input then fails. Moving the converted model to the device again (or creating the new modules on
the old weights' device) fixes it.
Stand-ins: a 2-layer Conformer-like encoder with icefall's `ScaledLinear` (weight/bias scales
stored as log-parameters) in the feed-forward modules, and the converter's
`scaled_linear_to_linear` + recursive replacement.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import copy
import torch
from torch import nn

class ScaledLinear(nn.Linear):
    def __init__(self, *args, initial_scale=1.0, **kwargs):
        super().__init__(*args, **kwargs)
        initial_scale = torch.tensor(initial_scale).log()
        self.weight_scale = nn.Parameter(initial_scale.clone().detach())
        self.bias_scale = nn.Parameter(initial_scale.clone().detach())

    def get_weight(self):
        return self.weight * self.weight_scale.exp()

    def get_bias(self):
        return None if self.bias is None else self.bias * self.bias_scale.exp()

    def forward(self, input):
        return torch.nn.functional.linear(input, self.get_weight(), self.get_bias())

class DoubleSwish(nn.Module):
    def forward(self, x):
        return x * torch.sigmoid(x - 1.0)

class ConformerEncoderLayer(nn.Module):
    def __init__(self, d_model, dim_feedforward):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d_model, 4, batch_first=True)
        self.pos_bias_u = nn.Parameter(torch.zeros(d_model))
        self.feed_forward = nn.Sequential(ScaledLinear(d_model, dim_feedforward), DoubleSwish(),
                                          ScaledLinear(dim_feedforward, d_model, initial_scale=0.25))
        self.norm_final = nn.LayerNorm(d_model)

    def forward(self, src):
        q = src + self.pos_bias_u
        src = src + self.self_attn(q, src, src, need_weights=False)[0]
        src = src + self.feed_forward(src)
        return self.norm_final(src)

class Conformer(nn.Module):
    def __init__(self, num_features, d_model=32, dim_feedforward=64, num_layers=2):
        super().__init__()
        self.encoder_embed = nn.Linear(num_features, d_model)
        self.encoder = nn.Module()
        self.encoder.layers = nn.ModuleList([ConformerEncoderLayer(d_model, dim_feedforward) for _ in range(num_layers)])

    def forward(self, x):
        x = self.encoder_embed(x)
        for layer in self.encoder.layers:
            x = layer(x)
        return x

def scaled_linear_to_linear(scaled_linear):
    assert isinstance(scaled_linear, ScaledLinear), type(scaled_linear)
    weight = scaled_linear.get_weight()
    bias = scaled_linear.get_bias()
    has_bias = bias is not None
    linear = torch.nn.Linear(in_features=scaled_linear.in_features, out_features=scaled_linear.out_features, bias=True)
    linear.weight.data.copy_(weight)
    if has_bias:
        linear.bias.data.copy_(bias)
    else:
        linear.bias.data.zero_()
    return linear

def convert_scaled_to_non_scaled(model, inplace=False):
    if not inplace:
        model = copy.deepcopy(model)
    d = {}
    for name, m in model.named_modules():
        if isinstance(m, ScaledLinear):
            d[name] = scaled_linear_to_linear(m)
    for k, v in d.items():
        parent, _, child = k.rpartition(".")
        setattr(model.get_submodule(parent) if parent else model, child, v)
    return model

model = Conformer(80)
device = torch.device("cuda:0")
model.to(device)
model.device = device
with torch.no_grad():
    convert_scaled_to_non_scaled(model, True)
x = torch.randn(1, 50, 80).to(device)
'''
CELL = '''
with torch.no_grad():
    encoder_out = model(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
