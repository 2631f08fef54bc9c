"""PQuantML quantizers built at the first forward pass of a model already on the GPU: their parameters land on the CPU.

Source: https://github.com/cern-nextgen/PQuantML/issues/77
"Model's quantizer bits may have a CPU/GPU mismatch due to the construction logic in quantizers.py
... the following line ... does not place the parameter on the CUDA device at initialization:
`self.k = torch.nn.Parameter(torch.full(param_shape, float(k)), requires_grad=False)`". The
quantizer parameters are created lazily when the layer first sees an input; in normal training that
first pass ran before the move to the GPU, but the hyper-parameter-optimization objective moves the
freshly built model to the GPU first, so the parameters are created on the CPU after `model.to()`
and the first quantized forward fails. The reporter's workaround: pass `device=` at initialization; once the quantizer exists, moving the
model again (`model.to(device)`) also carries its parameters.
Stand-in: a fixed-point quantizer with k / i / f parameters built on first call, wrapped around the
activations of a small MLP.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class FixedPointQuantizer(nn.Module):
    def __init__(self, k=1.0, i=0.0, f=7.0):
        super().__init__()
        self.k_init, self.i_init, self.f_init = k, i, f
        self.built = False

    def _param(self, value, param_shape, like, requires_grad=True):
        return torch.nn.Parameter(torch.full(param_shape, float(value)), requires_grad=requires_grad)

    def build(self, x):
        param_shape = (1, x.shape[1])
        self.k = self._param(self.k_init, param_shape, x, requires_grad=False)
        self.i = self._param(self.i_init, param_shape, x)
        self.f = self._param(self.f_init, param_shape, x)
        self.built = True

    def forward(self, x):
        if not self.built:
            self.build(x)
        scale = 2.0 ** (-self.f)
        low, high = -self.k * 2.0 ** self.i, 2.0 ** self.i - scale
        return torch.minimum(torch.maximum(torch.round(x / scale) * scale, low), high)

class QuantMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.q1 = FixedPointQuantizer()
        self.fc2 = nn.Linear(32, 5)

    def forward(self, x):
        return self.fc2(self.q1(torch.relu(self.fc1(x))))

device = torch.device("cuda:0")
# hyperparameters_optimization.py objective: build the trial model, move it, then train
model = QuantMLP().to(device)
x_batch = torch.randn(64, 16).to(device)
'''
CELL = '''
logits = model(x_batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.q1"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
