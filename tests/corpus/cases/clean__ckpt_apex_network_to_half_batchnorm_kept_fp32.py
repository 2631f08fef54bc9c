"""apex fp16_utils: a network restored from a checkpoint and converted with network_to_half, whose BatchNorm layers are put back to float32.

Source: https://github.com/NVIDIA/apex/blob/master/apex/fp16_utils/fp16util.py
`network_to_half(network)` returns `nn.Sequential(tofp16(), BN_convert_float(network.half()))`: the
input is cast to half by `tofp16`, every weight is half except the BatchNorm affine parameters and
running statistics, which `BN_convert_float` turns back to float32 ("batchnorm in fp32 for stability");
batch_norm accepts half activations with float32 parameters. Look-alike: a half model holding float32
norm parameters, fed a float32 batch. Stand-in: a small conv net; the checkpoint is an in-memory state
dict; run on the CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class tofp16(nn.Module):
    def forward(self, input):
        return input.half()

def BN_convert_float(module):
    if isinstance(module, torch.nn.modules.batchnorm._BatchNorm):
        module.float()
    for child in module.children():
        BN_convert_float(child)
    return module

def network_to_half(network):
    return nn.Sequential(tofp16(), BN_convert_float(network.half()))

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
                                      nn.Conv2d(16, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)

    def forward(self, x):
        return self.pool(self.features(x)).flatten(1)

model = Net()
checkpoint = {"state_dict": Net().state_dict(), "epoch": 30}      # torch.load(args.resume, map_location="cpu")
model.load_state_dict(checkpoint["state_dict"])
model = network_to_half(model)
model.eval()
images = torch.randn(4, 3, 32, 32)
'''
CELL = '''
with torch.no_grad():
    features = model(images)
features = features.float()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
