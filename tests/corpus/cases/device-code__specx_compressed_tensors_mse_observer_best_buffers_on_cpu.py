"""compressed-tensors MSE observer on a GPU model: the search buffers `best`/`min_val`/`max_val` are allocated on the CPU.

Source: https://github.com/vllm-project/compressed-tensors/issues/191
"MSE support": with `observer="mse"` set in a quantization config group (llm-compressor W8A8 recipe),
calibrating a model on the GPU "results in error due to conflicting devices (cuda:0 and cpu)".
`MovingAverageMSEObserver.calculate_mse_min_max` pre-allocated `best = torch.full(shape, inf)`,
`min_val = torch.ones(shape)`, `max_val = torch.zeros(shape)` without a device and compared/filled
them with the CUDA error of each shrink candidate. The fix (PR #190) allocates them with
`torch.full_like`/`ones_like`/`zeros_like` of the observed min/max.
Stand-ins: compressed-tensors' Observer/MovingAverageMSEObserver (channel strategy), `calculate_qparams`,
`fake_quantize`, and llm-compressor's observer attach/update helpers; the masked update
`best[tmp] = err[tmp]` is written with `torch.where` (same tensors, same devices).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from dataclasses import dataclass
import torch
from torch import nn

@dataclass
class QuantizationArgs:
    num_bits: int = 8
    symmetric: bool = True
    strategy: str = "channel"
    observer: str = "mse"

def calculate_qparams(min_vals, max_vals, args):
    min_vals = torch.min(min_vals, torch.zeros_like(min_vals))
    max_vals = torch.max(max_vals, torch.zeros_like(max_vals))
    bit_range = 2 ** args.num_bits - 1
    if args.symmetric:
        max_val_pos = torch.max(torch.abs(min_vals), torch.abs(max_vals))
        scales = max_val_pos / (float(bit_range) / 2)
        scales = torch.clamp(scales, min=torch.finfo(torch.float32).eps)
        zero_points = torch.zeros(scales.shape, device=scales.device, dtype=torch.int8)
    else:
        scales = (max_vals - min_vals) / float(bit_range)
        scales = torch.clamp(scales, min=torch.finfo(torch.float32).eps)
        zero_points = (-128 - torch.round(min_vals / scales)).to(torch.int8)
    return scales, zero_points

def fake_quantize(x, scale, zero_point, args):
    q_max = 2 ** (args.num_bits - 1) - 1
    q = torch.clamp(torch.round(x / scale + zero_point), -q_max - 1, q_max)
    return (q - zero_point) * scale

class Observer(nn.Module):
    def __init__(self, quantization_args):
        super().__init__()
        self.quantization_args = quantization_args
        self._scale, self._zero_point = None, None

    def forward(self, observed, g_idx=None):
        return self.get_qparams(observed=observed, g_idx=g_idx)

    def get_qparams(self, observed=None, g_idx=None):
        if observed is not None and self.quantization_args.strategy == "channel":
            self._scale, self._zero_point = self.get_qparams_along_dim(observed, 0)
        return self._scale, self._zero_point

    def get_qparams_along_dim(self, observed, dim, tensor_id=None):
        reduce_dims = tuple(idx for idx in range(observed.ndim) if idx != dim)
        return self.calculate_qparams(observed, reduce_dims=reduce_dims, tensor_id=tensor_id)

class MovingAverageMSEObserver(Observer):
    def __init__(self, quantization_args, averaging_constant=0.01, grid=100.0, maxshrink=0.80, norm=2.4):
        super().__init__(quantization_args=quantization_args)
        self.min_val, self.max_val = {}, {}
        self.averaging_constant = averaging_constant
        self.grid, self.maxshrink, self.norm = grid, maxshrink, norm

    def calculate_mse_min_max(self, observed, reduce_dims=None):
        absolute_min_val = torch.amin(observed, dim=reduce_dims, keepdims=True)
        absolute_max_val = torch.amax(observed, dim=reduce_dims, keepdims=True)

        best = torch.full(absolute_min_val.shape, float("inf"))
        min_val = torch.ones(absolute_min_val.shape)
        max_val = torch.zeros(absolute_max_val.shape)
        for i in range(int(self.maxshrink * self.grid)):
            p = 1 - i / self.grid
            shrinked_min_val = p * absolute_min_val
            shrinked_max_val = p * absolute_max_val
            candidate_scales, candidate_zero_points = calculate_qparams(
                shrinked_min_val, shrinked_max_val, self.quantization_args)
            q = fake_quantize(observed, candidate_scales, candidate_zero_points, self.quantization_args)
            q -= observed
            q.abs_()
            q.pow_(self.norm)
            err = torch.sum(q, reduce_dims, keepdims=True)
            tmp = err < best
            best = torch.where(tmp, err, best)
            min_val = torch.where(tmp, shrinked_min_val, min_val)
            max_val = torch.where(tmp, shrinked_max_val, max_val)
        return min_val, max_val

    def calculate_qparams(self, observed, reduce_dims=None, tensor_id=None):
        min_val, max_val = self.calculate_mse_min_max(observed, reduce_dims)
        running_min_val = self.min_val.get(tensor_id, None)
        running_max_val = self.max_val.get(tensor_id, None)
        if running_min_val is None or running_max_val is None:
            updated_min_val, updated_max_val = min_val, max_val
        else:
            updated_min_val = running_min_val + self.averaging_constant * (min_val - running_min_val)
            updated_max_val = running_max_val + self.averaging_constant * (max_val - running_max_val)
        tensor_id = tensor_id or "default"
        self.min_val[tensor_id] = updated_min_val
        self.max_val[tensor_id] = updated_max_val
        return calculate_qparams(updated_min_val, updated_max_val, self.quantization_args)

def initialize_observer(module, base_name, quantization_args):
    device = next(module.parameters()).device
    module.register_module(f"{base_name}_observer", MovingAverageMSEObserver(quantization_args))
    module.register_parameter(f"{base_name}_scale",
                              nn.Parameter(torch.empty(0, device=device), requires_grad=False))
    module.register_parameter(f"{base_name}_zero_point",
                              nn.Parameter(torch.empty(0, device=device, dtype=torch.int8), requires_grad=False))

def update_weight_zp_scale(module):
    observer = getattr(module, "weight_observer")
    scale, zero_point = observer(module.weight)
    module.weight_scale.data = scale
    module.weight_zero_point.data = zero_point

class LlamaAttention(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.q_proj = nn.Linear(hidden, hidden, bias=False)
        self.k_proj = nn.Linear(hidden, hidden, bias=False)
        self.v_proj = nn.Linear(hidden, hidden, bias=False)

model = LlamaAttention().to("cuda:0")
weight_args = QuantizationArgs(num_bits=8, symmetric=True, strategy="channel", observer="mse")
for name in ("q_proj", "k_proj", "v_proj"):
    initialize_observer(getattr(model, name), "weight", weight_args)
'''
CELL = '''
with torch.no_grad():
    update_weight_zp_scale(model.q_proj)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.q_proj.weight_observer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''        best = torch.full(absolute_min_val.shape, float("inf"))
        min_val = torch.ones(absolute_min_val.shape)
        max_val = torch.zeros(absolute_max_val.shape)''',
                  '''        best = torch.full_like(absolute_min_val, torch.finfo(absolute_min_val.dtype).max)
        min_val = torch.ones_like(absolute_min_val)
        max_val = torch.zeros_like(absolute_max_val)''')
CLEAN = False
