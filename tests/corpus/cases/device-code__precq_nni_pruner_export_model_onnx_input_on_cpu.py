"""NNI pruner `export_model(..., onnx_path, input_shape)` on a GPU model: the ONNX dummy input is created on the CPU.

Source: https://github.com/microsoft/nni/issues/1925
After pruning on the GPU, `pruner.export_model('model.pth', 'mask.pth', 'model.onnx', [1, 3, 224, 224])`
failed with "Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be
the same". The maintainer: a bug in `export_model` (compressor.py): `input_data =
torch.Tensor(*input_shape)` is created on the CPU and passed to `torch.onnx.export` with the
GPU model; "`input_data` should be put on the same device as your model" (workaround: add
`input_data = input_data.to('cuda')`; fixed in v1.4 by a `device` argument).
Stand-ins: NNI v1.3's `Compressor.export_model` (weights masked in place; the `torch.save` calls
and logging are left out), a level pruner's masks, a small CNN on cuda:0; `torch.onnx.export`
is represented by the trace's forward call (`self.bound_model(input_data)`).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class Compressor:
    def __init__(self, model, config_list):
        self.bound_model = model
        self.config_list = config_list
        self.mask_dict = {}

    def export_model(self, model_path, mask_path=None, onnx_path=None, input_shape=None):
        assert model_path is not None, 'model_path must be specified'
        for name, m in self.bound_model.named_modules():
            if name == "":
                continue
            mask = self.mask_dict.get(name)
            if mask is not None:
                m.weight.data = m.weight.data.mul(mask)
        # torch.save(self.bound_model.state_dict(), model_path); torch.save(self.mask_dict, mask_path)
        if onnx_path is not None:
            assert input_shape is not None, 'input_shape must be specified to export onnx model'
            # input info needed
            input_data = torch.Tensor(*input_shape)
            self.bound_model(input_data)        # torch.onnx.export(self.bound_model, input_data, onnx_path) traces this call

class LevelPruner(Compressor):
    def compress(self):
        for name, m in self.bound_model.named_modules():
            if isinstance(m, (nn.Conv2d, nn.Linear)):
                w = m.weight.data
                self.mask_dict[name] = torch.ones_like(w)
        return self.bound_model

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(8)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        x = torch.relu(self.bn1(self.conv1(x)))
        return self.fc(self.pool(x).flatten(1))

device = torch.device("cuda:0")
model = Net().to(device).eval()
configure_list = [{"sparsity": 0.5, "op_types": ["default"]}]
pruner = LevelPruner(model, configure_list)
model = pruner.compress()
'''
CELL = '''
with torch.no_grad():
    pruner.export_model('model.pth', 'mask.pth', 'model.onnx', [1, 3, 224, 224])
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["input_data"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("input_data = torch.Tensor(*input_shape)",
                  "input_data = torch.Tensor(*input_shape).to(next(self.bound_model.parameters()).device)")
CLEAN = False
