"""Captum `_select_targets` with a Python-list target on a GPU model: the index tensor is built on the output's device.

Source: https://github.com/meta-pytorch/captum/blob/master/captum/_utils/common.py
`_run_forward` calls the forward function and `_select_targets(output, target)`; for a list of ints it does
`torch.gather(output, 1, torch.tensor(target, device=device).reshape(len(output), 1))` with
`device = output.device` (the fix for the earlier "new tensor ignoring used device" report). Look-alike: a
`torch.tensor(...)` made from a Python list inside library code next to cuda outputs; it names the device, so it runs.
Stand-ins: a small classifier on cuda:0, `_run_forward` / `_select_targets` (int and list branches), and
`Saliency.attribute` reduced to its forward part (the gradient w.r.t. the inputs is left out: no autograd on the
simulated GPU).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def _verify_select_column(output, target):
    target = (target,) if isinstance(target, int) else target
    assert len(target) <= len(output.shape) - 1
    return output.select(1, target[0])

def _select_targets(output, target):
    if target is None:
        return output
    num_examples = output.shape[0]
    dims = len(output.shape)
    device = output.device
    if isinstance(target, (int, tuple)):
        return _verify_select_column(output, target)
    elif isinstance(target, list):
        assert len(target) == num_examples, "Target list length does not match output!"
        assert dims == 2, "Output must be 2D to select tensor of targets."
        return torch.gather(output, 1, torch.tensor(target, device=device).reshape(len(output), 1)).squeeze(-1)
    raise AssertionError(f"Target type {type(target)} is not valid.")

def _run_forward(forward_func, inputs, target=None, additional_forward_args=None):
    inputs = inputs if isinstance(inputs, tuple) else (inputs,)
    args = additional_forward_args or ()
    output = forward_func(*(*inputs, *args))
    return _select_targets(output, target)

class Saliency:
    def __init__(self, forward_func):
        self.forward_func = forward_func
    def attribute(self, inputs, target=None, abs=True, additional_forward_args=None):
        return _run_forward(self.forward_func, inputs, target, additional_forward_args)

model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 5)).to("cuda:0")
model.eval()
inputs = torch.randn(4, 20, device="cuda:0")
saliency = Saliency(model)
'''
CELL = '''
selected = saliency.attribute(inputs, target=[3, 1, 4, 0])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
