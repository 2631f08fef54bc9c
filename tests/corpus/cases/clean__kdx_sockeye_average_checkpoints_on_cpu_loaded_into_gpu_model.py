"""Look-alike: checkpoint averaging loads every checkpoint with `map_location="cpu"`, averages there, then loads into a cuda model.

Source: https://github.com/awslabs/sockeye/pull/984
"When parameters are deserialized for averaging, PyTorch attempts to load them onto the original
device ... With this commit, we always deserialize parameters to the CPU when averaging." The
averaged CPU state dict is then given to a model already on the GPU: `load_state_dict` copies
across devices, so CPU tensors beside a cuda model are fine here.
Stand-in: the averaging loop over in-memory "checkpoints" (CPU state dicts, as `torch.load(...,
map_location="cpu")` returns them), a small transformer-ish block on the second device (meta stands in for cuda).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def make_model():
    return nn.ModuleDict({"embed": nn.Embedding(100, 32), "ff": nn.Linear(32, 32),
                          "norm": nn.LayerNorm(32), "out": nn.Linear(32, 100)})

def average(param_dicts):
    avg = {}
    for name in param_dicts[0]:
        avg[name] = sum(p[name] for p in param_dicts) / len(param_dicts)
    return avg

checkpoints = []
for _ in range(3):                               # torch.load(path, map_location="cpu")
    checkpoints.append({k: v.clone() for k, v in make_model().state_dict().items()})

model = make_model()
model.to("meta")                  # "cuda" in training; meta stands in for the GPU
'''
CELL = '''
averaged_params = average(checkpoints)
model.load_state_dict(averaged_params)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
