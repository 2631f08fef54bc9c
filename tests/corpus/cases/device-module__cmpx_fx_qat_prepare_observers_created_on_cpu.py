"""FX graph mode QAT: the model is moved to the GPU, then `prepare_fx` inserts fake-quant observers that are created on the CPU.

Source: https://github.com/pytorch/pytorch/pull/44115
"fx qat: respect device affinity": with the model already on `cuda:0`
(`model.to(device); model = symbolic_trace(model); model = fuse_fx(model); model = prepare_fx(model, qconfig_dict)`),
the observers that the FX prepare pass inserted "were always created on CPU", so the first QAT
forward mixes the CUDA activations with the observers' CPU statistics. The PR creates the observers
on the model's device; before it, the working order was to move the prepared model to the device
after `prepare_fx` (the PR: "QAT prepare [now works] regardless of whether users move the model to
cuda before or after calling this pass").
Stand-in: a tiny conv/linear model, `prepare_fx` as a function that wraps the model and inserts a
min/max fake-quant observer module (per-channel min/max buffers, created on the CPU) after the
first layer; the random data is on the GPU.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

class FakeQuantize(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.register_buffer("min_val", torch.full((ch,), float("inf")))
        self.register_buffer("max_val", torch.full((ch,), float("-inf")))

    def forward(self, x):
        cur_min = x.detach().amin(dim=0)
        cur_max = x.detach().amax(dim=0)
        self.min_val = torch.minimum(self.min_val, cur_min)
        self.max_val = torch.maximum(self.max_val, cur_max)
        scale = (self.max_val - self.min_val).clamp(min=1e-8) / 255.0
        return torch.round(x / scale) * scale

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(8, 16)
        self.relu = nn.ReLU()
        self.fc2 = nn.Linear(16, 4)

    def forward(self, x):
        return self.fc2(self.relu(self.fc1(x)))

class ObservedGraphModule(nn.Module):
    def __init__(self, root):
        super().__init__()
        self.fc1, self.relu, self.fc2 = root.fc1, root.relu, root.fc2
        self.activation_post_process_0 = FakeQuantize(16)      # created on the CPU

    def forward(self, x):
        x = self.fc1(x)
        x = self.activation_post_process_0(x)
        return self.fc2(self.relu(x))

def prepare_fx(model, qconfig_dict):
    return ObservedGraphModule(model)

model = Model()
qconfig_dict = {'': 'default_qat_qconfig(fbgemm)'}
device = torch.device('cuda:0')
model.to(device)
model = prepare_fx(model, qconfig_dict)
data = torch.randn(32, 8, device=device)
'''
CELL = '''
out = model(data)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.activation_post_process_0"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
