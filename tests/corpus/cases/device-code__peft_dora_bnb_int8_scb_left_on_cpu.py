"""PEFT DoRA on a bitsandbytes 8-bit layer kept on the CPU: the int8 weight is moved to the GPU, its SCB scales are not.

Source: https://github.com/huggingface/peft/pull/3418
"The issue happens during 8-bit bnb dequantization. In the DoRA initialization path, the quantized
weight data may be temporarily moved to the accelerator device, while the bnb scale tensor
state.SCB can remain on CPU. Passing those tensors directly into
bnb.functional.int8_vectorwise_dequant causes a device mismatch" ("found at least two devices,
cuda:0 and cpu"). The fix moves `state.SCB` to `weight.data.device`. Stand-in: an 8-bit Linear
with its int8 weight and per-row `SCB` in a plain `state` object, PEFT's `dequantize_bnb_weight`,
and the DoRA layer's weight-norm initialization that moves the weight to the accelerator.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class MatmulLtState:
    def __init__(self):
        self.SCB = None

class Linear8bitLt(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        w = torch.randn(out_features, in_features)
        scb = w.abs().amax(dim=1)
        self.weight = nn.Parameter((w / scb[:, None] * 127).round().to(torch.int8), requires_grad=False)
        self.state = MatmulLtState()
        self.state.SCB = scb

def int8_vectorwise_dequant(A, stats):
    return A.float() * (stats.view(-1, 1) * 7.874015718698502e-3)

def dequantize_bnb_weight(weight, state):
    return int8_vectorwise_dequant(weight.data, state.SCB)

class DoraLinearLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = None

    def get_weight_norm(self, weight, lora_weight, scaling):
        return (weight + scaling * lora_weight).norm(p=2, dim=1)

    def update_layer(self, *, base_layer, lora_A, lora_B, scaling, device):
        weight = base_layer.weight
        weight = weight.to(device)                     # temporarily on the accelerator
        weight = dequantize_bnb_weight(weight, state=base_layer.state)
        lora_weight = (lora_B.to(device) @ lora_A.to(device))
        self.weight = nn.Parameter(self.get_weight_norm(weight, lora_weight, scaling))

base_layer = Linear8bitLt(16, 8)             # test_initialize_dora_with_bnb_on_cpu: model on CPU
lora_A = torch.randn(4, 16)
lora_B = torch.zeros(8, 4)
dora_layer = DoraLinearLayer()
'''
CELL = '''
with torch.no_grad():
    dora_layer.update_layer(base_layer=base_layer, lora_A=lora_A, lora_B=lora_B, scaling=2.0,
                            device=torch.device("cuda:0"))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["base_layer.state.SCB"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "return int8_vectorwise_dequant(weight.data, state.SCB)",
    "return int8_vectorwise_dequant(weight.data, state.SCB.to(weight.data.device))",
)
CLEAN = False
