"""Quantizing a model on the GPU with a PT2E-style quantizer: the derived bias zero point is created on the CPU while the derived scale lives on the GPU.

Source: https://github.com/pytorch/executorch/pull/14978
"Update derived_zero initialization to use device aligned with other inputs": when the model is
quantized on a GPU, the derived quantization parameters for the bias (scale = activation scale x
weight scale) come out on cuda, but `derived_zero` is built with a plain `torch.zeros(...)` and
lands on the CPU; quantizing the bias then mixes them -- the PR's log: "input.device.type cuda
scales.device.type cuda zero_points.device.type cpu". The fix creates the zero point on the
device of the other inputs.
Stand-ins: a small conv+linear model on cuda:0, min/max observers for activations and weights,
the derive-qparams function for the bias, and a convert step that quantizes each bias with
`round(b / scale) + zero_point` (the quantize_per_channel arithmetic).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class MinMaxObserver:
    def __init__(self, per_channel=False, qmin=-128, qmax=127):
        self.per_channel, self.qmin, self.qmax = per_channel, qmin, qmax
        self.min_val = self.max_val = None

    def __call__(self, x):
        if self.per_channel:
            flat = x.reshape(x.shape[0], -1)
            self.min_val, self.max_val = flat.amin(1), flat.amax(1)
        else:
            self.min_val, self.max_val = x.amin(), x.amax()
        return x

    def calculate_qparams(self):
        scale = torch.maximum(self.max_val.abs(), self.min_val.abs()) / ((self.qmax - self.qmin) / 2)
        return scale, torch.zeros_like(scale, dtype=torch.int32)

def derive_bias_qparams_fn(obs_or_fqs):
    act_obs_or_fq, weight_obs_or_fq = obs_or_fqs
    act_scale, _ = act_obs_or_fq.calculate_qparams()
    weight_scale, _ = weight_obs_or_fq.calculate_qparams()
    derived_scale = (act_scale * weight_scale).to(torch.float32)
    derived_zero = torch.zeros(derived_scale.size()).to(torch.int32)
    return derived_scale, derived_zero

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        return self.fc(torch.relu(self.conv(x)).mean((2, 3)))

def prepare_pt2e(model):
    model.act_obs = {"conv": MinMaxObserver(), "fc": MinMaxObserver()}
    model.weight_obs = {"conv": MinMaxObserver(per_channel=True), "fc": MinMaxObserver(per_channel=True)}
    return model

def calibrate(model, x):
    model.act_obs["conv"](x)
    model.weight_obs["conv"](model.conv.weight)
    h = torch.relu(model.conv(x)).mean((2, 3))
    model.act_obs["fc"](h)
    model.weight_obs["fc"](model.fc.weight)

def convert_pt2e(model):
    for name in ("conv", "fc"):
        mod = getattr(model, name)
        scale, zero_point = derive_bias_qparams_fn((model.act_obs[name], model.weight_obs[name]))
        q_bias = torch.clamp(torch.round(mod.bias / scale) + zero_point, -2**31, 2**31 - 1)   # quantize_per_channel
        mod.register_buffer("bias_q", q_bias.to(torch.int32))
    return model

device = "cuda:0"
model = Net().eval().to(device)
prepared = prepare_pt2e(model)
example_inputs = torch.randn(2, 3, 16, 16, device=device)
with torch.no_grad():
    calibrate(prepared, example_inputs)
'''
CELL = '''
with torch.no_grad():
    converted = convert_pt2e(prepared)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["derived_zero"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("derived_zero = torch.zeros(derived_scale.size()).to(torch.int32)",
                  "derived_zero = torch.zeros(derived_scale.size(), device=derived_scale.device).to(torch.int32)")
CLEAN = False
