"""pytorch-3dunet: a checkpoint saved from an nn.DataParallel model is loaded on one GPU by stripping 'module.' and copying the CPU tensors into the model already on the device.

Source: https://github.com/wolny/pytorch-3dunet/pull/63
"model trained with `nn.DataParallel` will fail when loaded later on on a single GPU": the fix loads
`state = torch.load(checkpoint_path, map_location='cpu')` and, when keys start with `module.`,
strips the prefix before `model.load_state_dict(state['model_state_dict'])`; the model had already
been moved to the device by then. Look-alike: a DataParallel-era checkpoint of CPU tensors next to a
GPU model, simulated with meta as the GPU. Stand-in: a small 3D U-Net-shaped encoder/decoder and the loading helper.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
from collections import OrderedDict

class UNet3D(nn.Module):
    def __init__(self, in_channels=1, out_channels=2, f_maps=8):
        super().__init__()
        self.encoders = nn.ModuleList([nn.Conv3d(in_channels, f_maps, 3, padding=1),
                                       nn.Conv3d(f_maps, 2 * f_maps, 3, padding=1)])
        self.decoders = nn.ModuleList([nn.Conv3d(2 * f_maps, f_maps, 3, padding=1)])
        self.final_conv = nn.Conv3d(f_maps, out_channels, 1)

    def forward(self, x):
        for enc in self.encoders:
            x = torch.relu(enc(x))
        for dec in self.decoders:
            x = torch.relu(dec(x))
        return self.final_conv(x)

def load_checkpoint(state, model):
    model_state = state["model_state_dict"]
    if next(iter(model_state)).startswith("module."):
        model_state = OrderedDict((k[len("module."):], v) for k, v in model_state.items())
    model.load_state_dict(model_state)
    return state

# last_checkpoint.pytorch written by a DataParallel run, torch.load(..., map_location='cpu')
_dp_state = OrderedDict(("module." + k, v) for k, v in UNet3D().state_dict().items())
state = {"epoch": 40, "num_iterations": 12000, "model_state_dict": _dp_state}

device = torch.device("meta")         # torch.device("cuda:0")
model = UNet3D().to(device)
load_checkpoint(state, model)
model.eval()
patch = torch.randn(1, 1, 8, 16, 16).to(device)
'''
CELL = '''
with torch.no_grad():
    prediction = model(patch)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
