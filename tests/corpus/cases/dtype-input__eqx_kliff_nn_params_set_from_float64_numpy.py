"""KLIFF NN potential: weights updated from a NumPy parameter array turn the float32 network into float64.

Source: https://github.com/openkim/kliff/pull/141
"Fix bug when we try to set NN parameter with different dtype": torch models default to float32, but when
the weights and biases are updated from a parameter array written with NumPy (float64), e.g. in bootstrap
runs, `param.data = parameters[ii]` makes the layer float64 and the next evaluation on the float32
descriptors fails. The fix converts the array to the parameter's own dtype. Stand-in: the descriptor-based
NN (`NeuralNetwork` with two linear layers) and the update loop.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
from torch import nn

model = nn.Sequential(nn.Linear(30, 10), nn.Tanh(), nn.Linear(10, 1))      # NeuralNetwork(descriptor)

def set_opt_params(model, flat):
    parameters, i = [], 0
    for param in model.parameters():
        n = param.numel()
        parameters.append(torch.from_numpy(flat[i:i + n].reshape(param.shape)))
        i += n
    for ii, param in enumerate(model.parameters()):
        param.data = parameters[ii]

rng = np.random.default_rng(0)
flat = rng.normal(size=sum(p.numel() for p in model.parameters()))          # bootstrap sample
set_opt_params(model, flat)
zeta = torch.randn(5, 30)                                                   # float32 descriptors
'''
CELL = '''
energy = model(zeta).sum()
'''
EXPECT_ERROR = ("same dtype", "expected scalar type")
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model.float()
'''
REFERENCE_EDIT = None
CLEAN = False
