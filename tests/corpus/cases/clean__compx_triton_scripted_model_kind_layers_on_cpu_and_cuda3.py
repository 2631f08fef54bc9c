"""Triton's libtorch test model for instance kind MODEL: a scripted model whose layers move the inputs to fixed devices ("cpu" and "cuda:3") on purpose.

Source: https://github.com/triton-inference-server/server/pull/5810
`qa/L0_libtorch_instance_group_kind_model/gen_models.py`: `TestModel(device0, device1)` holds a
`SumModule` and a `DiffModule`, each with a plain `self.device` string; their `forward` does
`INPUT0 = INPUT0.to(self.device)` (and INPUT1) before adding / subtracting, so one model spreads its
work over two devices ("libtorch_multi_gpu": cuda:2 and cuda:0; "libtorch_multi_device": cpu and
cuda:3), and it is `torch.jit.script`ed so the devices are read at run time. The inputs arrive on the
CPU; the outputs come back on two different devices by design. Look-alike: hard-coded device strings
in forward and mixed-device outputs, and nothing mismatched. Stand-in: the scripted model run as the
module itself.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class SumModule(nn.Module):
    def __init__(self, device):
        super(SumModule, self).__init__()
        self.device = device

    def forward(self, INPUT0, INPUT1):
        INPUT0 = INPUT0.to(self.device)
        INPUT1 = INPUT1.to(self.device)
        print("SumModule - INPUT0 device: {}, INPUT1 device: {}".format(INPUT0.device, INPUT1.device))
        return INPUT0 + INPUT1

class DiffModule(nn.Module):
    def __init__(self, device):
        super(DiffModule, self).__init__()
        self.device = device

    def forward(self, INPUT0, INPUT1):
        INPUT0 = INPUT0.to(self.device)
        INPUT1 = INPUT1.to(self.device)
        print("DiffModule - INPUT0 device: {}, INPUT1 device: {}".format(INPUT0.device, INPUT1.device))
        return INPUT0 - INPUT1

class TestModel(nn.Module):
    def __init__(self, device0, device1):
        super(TestModel, self).__init__()
        self.device0 = device0
        self.device1 = device1
        self.layer1 = SumModule(self.device0)
        self.layer2 = DiffModule(self.device1)

    def forward(self, INPUT0, INPUT1):
        op0 = self.layer1(INPUT0, INPUT1)
        op1 = self.layer2(INPUT0, INPUT1)
        return op0, op1

model = TestModel("cpu", "cuda:3")      # "libtorch_multi_device"
scripted_model = model                  # torch.jit.script(model)
INPUT0 = torch.randn(16)
INPUT1 = torch.randn(16)
'''
CELL = '''
OUTPUT0, OUTPUT1 = scripted_model(INPUT0, INPUT1)
print(OUTPUT0.device, OUTPUT1.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
