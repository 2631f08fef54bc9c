"""LightningModule.to_onnx after GPU training: `example_input_array` is still a CPU tensor.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/3144
"ONNX model does not save on GPU": after training on a GPU, `model.to_onnx(filepath,
export_params=True)` fails inside `to_onnx` (`kwargs['example_outputs'] = self(input_data)`)
when `self.example_input_array = torch.zeros(1, 1, 500, 500)` (or `input_sample`) is not a CUDA
tensor. `example_input_array` is a plain tensor attribute, which `Module.to()` does not move, and
`to_onnx` used it as it was. The fix in Lightning moves the sample to the module's device before
calling the model and `torch.onnx.export`.
Stand-ins: a minimal LightningModule (`device` property, `example_input_array`, Lightning 0.9's
`to_onnx` with the export call represented by the forward it traces), a small conv net moved to
cuda:0 as the Trainer does; smaller input.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class LightningModule(nn.Module):
    @property
    def device(self):
        return next(self.parameters()).device

    def to_onnx(self, file_path, input_sample=None, **kwargs):
        if isinstance(input_sample, torch.Tensor):
            input_data = input_sample
        elif self.example_input_array is not None:
            input_data = self.example_input_array
        else:
            raise ValueError("`input_sample` and `example_input_array` tensors are both missing.")
        if 'example_outputs' not in kwargs:
            self.eval()
            kwargs['example_outputs'] = self(input_data)
        # torch.onnx.export(self, input_data, file_path, **kwargs)

class SegModel(LightningModule):
    def __init__(self):
        super().__init__()
        self.example_input_array = torch.zeros(1, 1, 32, 32)
        self.conv = nn.Conv2d(1, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.head = nn.Conv2d(8, 2, 1)

    def forward(self, x):
        return self.head(torch.relu(self.bn(self.conv(x))))

model = SegModel()
model.to("cuda:0")          # trainer.fit(model) on a GPU
'''
CELL = '''
filepath = 'model.onnx'
with torch.no_grad():
    model.to_onnx(filepath, export_params=True)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["model.example_input_array"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        if 'example_outputs' not in kwargs:\n            self.eval()",
                  "        input_data = input_data.to(self.device)\n        if 'example_outputs' not in kwargs:\n            self.eval()")
CLEAN = False
