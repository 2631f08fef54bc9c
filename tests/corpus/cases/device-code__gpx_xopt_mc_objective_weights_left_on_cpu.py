"""Xopt Bayesian generator with `use_cuda=True`: the MC objective's weights are built on the CPU.

Source: https://github.com/xopt-org/Xopt/issues/311
`create_mc_objective(vocs, tkwargs)` accepts the torch keyword arguments but calls
`set_botorch_weights(vocs)` without them, so the objective weights are a CPU tensor while the
posterior samples come from the GP on cuda; the matmul fails. The maintainer's fix:
`weights = set_botorch_weights(vocs).to(**tkwargs)`. Stand-in: VOCS as a dict of objectives,
the two Xopt helpers and BoTorch's `GenericMCObjective` reduced to a callable.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def set_botorch_weights(vocs):
    output_names = list(vocs["objectives"])
    weights = torch.zeros(len(output_names), dtype=torch.double)
    for idx, name in enumerate(output_names):
        weights[idx] = 1.0 if vocs["objectives"][name] == "MAXIMIZE" else -1.0
    return weights

class GenericMCObjective:
    def __init__(self, objective):
        self.objective = objective

    def __call__(self, samples, X=None):
        return self.objective(samples, X=X)

def create_mc_objective(vocs, tkwargs):
    weights = set_botorch_weights(vocs)

    def obj_callable(Z, X=None):
        return torch.matmul(Z, weights.reshape(-1, 1)).squeeze(-1)

    return GenericMCObjective(obj_callable)

vocs = {"variables": {"x1": [0, 1], "x2": [0, 1]}, "objectives": {"y1": "MINIMIZE", "y2": "MAXIMIZE"}}
tkwargs = {"dtype": torch.double, "device": torch.device("cuda:0")}
samples = torch.randn(128, 4, 1, 2, **tkwargs)     # posterior samples from the GP on cuda
objective = create_mc_objective(vocs, tkwargs)
'''
CELL = '''
obj_values = objective(samples)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "found at least two devices")
CULPRITS = ["weights"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    weights = set_botorch_weights(vocs)\n", "    weights = set_botorch_weights(vocs).to(**tkwargs)\n")
CLEAN = False
