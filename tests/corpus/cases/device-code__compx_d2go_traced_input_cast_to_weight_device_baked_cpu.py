"""d2go: a model traced on the CPU casts its input with `x.to(self.conv1.weight.device)`; after moving the TorchScript to the GPU the cast still goes to the CPU.

Source: https://github.com/facebookresearch/d2go/pull/203
The PR's example: `MyModel.forward` starts with `x = x.to(self.conv1.weight.device)` so that a CPU
input works when the model is on the GPU (as GeneralizedRCNN does). Traced on the CPU
(`ts = torch.jit.trace(model, x)`), the `device` is not a tensor, so the tracer hard-codes
`device=cpu` in the `aten::to`; after moving the traced module to cuda the input is "cast" to the CPU
and the conv, whose weights moved, fails. The fix: script the casting operation so the device is
read at run time. Stand-ins: the traced module written out as the code the trace recorded; a
pooled linear head after the two convs (the simulated conv does not check devices, the head does).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class MyModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 20, 5)
        self.conv2 = nn.Conv2d(20, 20, 5)
        self.fc = nn.Linear(20, 10)

    def forward(self, x):
        # cast the input to the same device as this model
        x = x.to(self.conv1.weight.device)
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        return self.fc(F.adaptive_avg_pool2d(x, 1).flatten(1))

class TracedMyModel(MyModel):         # what torch.jit.trace(model, x) recorded on the CPU
    def forward(self, x):
        x = x.to(device=torch.device("cpu"))
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        return self.fc(F.adaptive_avg_pool2d(x, 1).flatten(1))

model = MyModel()
x = torch.zeros([1, 3, 32, 32])
ts = TracedMyModel()                  # ts = torch.jit.trace(model, x)
ts.load_state_dict(model.state_dict())
_ = ts(x)                             # fine on the CPU
ts = ts.to("cuda:0")
'''
CELL = '''
out = ts(x)                           # CPU input, model on the GPU: the forward should move it
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "Input type", "should be the same")
CULPRITS = ["ts"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('        x = x.to(device=torch.device("cpu"))',
                  '        x = x.to(device=self.conv1.weight.device)')
CLEAN = False
