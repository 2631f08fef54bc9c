"""ACE standalone inference from a saved checkpoint: the NaN-filled forcing data reach the float32 network as float64.

Source: https://github.com/ai2cm/ace/issues/525
"Saved checkpoints I've trained on CM4 atmosphere data with NaN-filling fail on standalone inference
at the module predict step with RuntimeError: Input type (double) and bias type (float) should be
the same"; models trained without NaN-filling worked, "a hypothesis is that the filling is resulting
in a cast to the wrong type in the data". Stand-in: the stepper restored from the checkpoint's state
dict, and an inference data loader whose NaN fill (`np.where(np.isnan(x), fill, x)` with a Python
float on float32 data read from netCDF as float64) yields float64 tensors; run on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class SphericalFourierNet(nn.Module):          # stand-in for the SFNO module
    def __init__(self, in_ch=4, out_ch=3):
        super().__init__()
        self.encoder = nn.Conv2d(in_ch, 16, 1)
        self.decoder = nn.Conv2d(16, out_ch, 1)

    def forward(self, x):
        return self.decoder(torch.relu(self.encoder(x)))

class Stepper:
    def __init__(self, state):
        self.module = SphericalFourierNet()
        self.module.load_state_dict(state["module"])
        self.module.eval()

    def predict(self, forcing):
        with torch.no_grad():
            return self.module(forcing)

checkpoint = {"stepper": {"module": SphericalFourierNet().state_dict()}}   # torch.load(best_ckpt.tar, map_location="cpu")
stepper = Stepper(checkpoint["stepper"])

def load_forcing(n_lat=8, n_lon=16, fill_value=0.0):
    raw = np.random.rand(1, 4, n_lat, n_lon)           # xarray reads the netCDF variables as float64
    raw[0, 0, 0, :3] = np.nan                          # ocean-masked points
    filled = np.where(np.isnan(raw), fill_value, raw)  # NaN-filling
    return torch.as_tensor(filled)

forcing = load_forcing()
'''
CELL = '''
prediction = stepper.predict(forcing)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "same dtype")
CULPRITS = ["forcing"]
FIX = "namespace"
REFERENCE_FIX = '''
forcing = forcing.float()
'''
REFERENCE_EDIT = None
CLEAN = False
