"""NNI QAT quantizer built after `model.to(device)`: the EMA buffers it registers stay on the CPU.

Source: https://github.com/microsoft/nni/issues/2918
"input_variable and model have been mapped to cuda, while the RuntimeError still occured" in
`update_ema`: `biased_ema = biased_ema * decay + (1 - decay) * value`. The maintainer: the quantizer
must be created and `compress()`ed before `model.to(device)`; the user moved the model first, so the
`ema_decay` / `tracked_*_biased` buffers that QAT_Quantizer registers on each quantized layer were
created on the CPU. Stand-in: QAT_Quantizer reduced to output quantization of one wrapped layer.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

def update_ema(biased_ema, value, decay, step):
    biased_ema = biased_ema * decay + (1 - decay) * value
    unbiased_ema = biased_ema / (1 - decay ** step)
    return biased_ema, unbiased_ema

class QuantizerModuleWrapper(nn.Module):
    def __init__(self, module, quantizer):
        super().__init__()
        self.module = module
        self.quantizer = quantizer

    def forward(self, x):
        out = self.module(x)
        return self.quantizer.quantize_output(out, self.module)

class QAT_Quantizer:
    def __init__(self, model, config_list, optimizer=None):
        self.bound_model = model
        self.config_list = config_list
        self.steps = 1
        for name in config_list[0]["op_names"]:
            layer = getattr(model, name)
            layer.register_buffer("ema_decay", torch.Tensor([0.99]))
            layer.register_buffer("tracked_min_biased", torch.zeros(1))
            layer.register_buffer("tracked_max_biased", torch.zeros(1))

    def quantize_output(self, output, module):
        current_min, current_max = torch.min(output), torch.max(output)
        module.tracked_min_biased, tracked_min = update_ema(
            module.tracked_min_biased, current_min, module.ema_decay, self.steps)
        module.tracked_max_biased, tracked_max = update_ema(
            module.tracked_max_biased, current_max, module.ema_decay, self.steps)
        return output.clamp(tracked_min, tracked_max)

    def compress(self):
        for name in self.config_list[0]["op_names"]:
            setattr(self.bound_model, name, QuantizerModuleWrapper(getattr(self.bound_model, name), self))
        return self.bound_model

class Mnist(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 64)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x.view(x.size(0), -1))))

device = torch.device("cuda:0")
model = Mnist()
model.to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.5)
configure_list = [{"quant_types": ["output"], "quant_bits": {"output": 8}, "op_names": ["fc1"]}]
quantizer = QAT_Quantizer(model, configure_list, optimizer)
quantizer.compress()
data = torch.randn(8, 1, 28, 28).to(device)
'''
CELL = '''
output = model(data)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.fc1.module.ema_decay", "model.fc1.module.tracked_min_biased",
            "model.fc1.module.tracked_max_biased"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
