"""Brevitas FINN export: the QuantConv2d placeholder function returns a CPU tensor for a GPU model.

Source: https://github.com/Xilinx/brevitas/issues/339
"When using export mode, 'QuantConv2d' always output 'cpu' Tensor. This causes an error. The problem
occurs in brevitas.export.onnx.finn.function.parameter.QuantizedConvNdPlaceholderFunction": its
`forward` (what the tracer runs in place of the quantized conv) is
`torch.empty(out_shape, dtype=torch.float)`, with no device, so the next layer of a model on the GPU
receives a CPU tensor. Suggested and merged fix: `device=x.device`. Stand-in: QuantConv2d with an
export handler that calls the placeholder Function; the ONNX trace is a plain forward call.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
from torch.autograd import Function

class QuantizedConvNdPlaceholderFunction(Function):
    @staticmethod
    def symbolic(g, x, Wt, w_qnt_scale, out_shape, pads, strides, kernel_shape, group, dilations):
        return g.op("finn.custom_op.general::MultiThreshold", x)

    @staticmethod
    def forward(ctx, x, Wt, w_qnt_scale, out_shape, pads, strides, kernel_shape, group, dilations):
        return torch.empty(out_shape, dtype=torch.float)

class FINNQuantConvNdHandler(nn.Module):
    def prepare_for_export(self, module):
        self.Wt = module.weight.detach()
        self.w_qnt_scale = module.weight.detach().abs().amax() / 127
        self.stride, self.padding = module.stride, module.padding
        self.kernel_shape, self.groups, self.dilation = module.kernel_size, module.groups, module.dilation
        self.out_channels = module.out_channels

    def forward(self, inp):
        n, _, h, w = inp.shape
        oh = (h + 2 * self.padding[0] - self.dilation[0] * (self.kernel_shape[0] - 1) - 1) // self.stride[0] + 1
        ow = (w + 2 * self.padding[1] - self.dilation[1] * (self.kernel_shape[1] - 1) - 1) // self.stride[1] + 1
        out_shape = (n, self.out_channels, oh, ow)
        return QuantizedConvNdPlaceholderFunction.apply(
            inp, self.Wt, self.w_qnt_scale, out_shape, self.padding, self.stride,
            self.kernel_shape, self.groups, self.dilation)

class QuantConv2d(nn.Conv2d):
    def __init__(self, *args, weight_bit_width=4, **kwargs):
        super().__init__(*args, **kwargs)
        self.weight_bit_width = weight_bit_width
        self.export_mode = False
        self.export_handler = FINNQuantConvNdHandler()

    def forward(self, inp):
        if self.export_mode:
            return self.export_handler(inp)
        return super().forward(inp)

class QuantNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = QuantConv2d(3, 16, 3, padding=1, bias=False, weight_bit_width=4)
        self.bn1 = nn.BatchNorm2d(16)
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = torch.relu(self.bn1(self.conv1(x)))
        return self.fc(x.mean(dim=(2, 3)))

def export_finn_onnx(module, input_t, export_path=None):
    """brevitas FINNManager.export: enable export mode, then trace (here: one forward call)."""
    for m in module.modules():
        if isinstance(m, QuantConv2d):
            m.export_handler.prepare_for_export(m)
            m.export_mode = True
    with torch.no_grad():
        return module(input_t)

device = torch.device("cuda:0")
model = QuantNet().to(device).eval()
inp = torch.randn(1, 3, 32, 32, device=device)
'''
CELL = '''
out = export_finn_onnx(model, input_t=inp, export_path="quant_net.onnx")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.conv1"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return torch.empty(out_shape, dtype=torch.float)",
                  "return torch.empty(out_shape, dtype=torch.float, device=x.device)")
CLEAN = False
