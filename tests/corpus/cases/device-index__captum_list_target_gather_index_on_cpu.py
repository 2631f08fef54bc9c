"""Captum attribution on a CUDA model with `target` given as a Python list: the gather index is built on the CPU.

Source: https://github.com/meta-pytorch/captum/issues/316
"Bug in *.attribute -- New tensor in gathering ignoring used device": attributions worked on cuda
while `target` was a tensor, but with a plain list `_select_targets` (captum/attr/_utils/common.py)
ran `torch.gather(output, 1, torch.tensor(target).reshape(len(output), 1))`, whose index tensor is
created on the CPU. The proposed fix creates it with `device=output.device`. Stand-in:
`_select_targets` and a reduced FeatureAblation (a perturbation method that, like Saliency, selects
the target outputs through `_select_targets`; it needs no autograd in the fake-cuda simulation).
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
from torch import nn

def _select_targets(output, target):
    """captum.attr._utils.common._select_targets (0.2.0)."""
    if target is None:
        return output
    num_examples = output.shape[0]
    if isinstance(target, int):
        return output.select(1, target)
    elif isinstance(target, torch.Tensor):
        if len(target.shape) == 1 and torch.numel(target) == num_examples:
            return torch.gather(output, 1, target.reshape(len(output), 1))
        raise AssertionError("Tensor target dimension %r is not valid." % (target.shape,))
    elif isinstance(target, list):
        assert len(target) == num_examples, "Target list length does not match output!"
        if type(target[0]) is int:
            return torch.gather(output, 1, torch.tensor(target).reshape(len(output), 1))
    raise AssertionError("Target type %r is not valid." % target)

class FeatureAblation:
    """captum.attr.FeatureAblation (reduced: one feature per column, baseline 0)."""
    def __init__(self, forward_func):
        self.forward_func = forward_func

    def attribute(self, inputs, target=None):
        initial_eval = _select_targets(self.forward_func(inputs), target)
        attrs = []
        for i in range(inputs.shape[1]):
            col = torch.tensor([i], device=inputs.device)
            ablated = inputs.index_fill(1, col, 0.0)
            attrs.append(initial_eval - _select_targets(self.forward_func(ablated), target))
        return torch.cat(attrs, dim=1)

model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 3)).to("cuda:0").eval()
inputs = torch.randn(4, 6, device="cuda:0")
labels_list = [0, 2, 1, 2]
ablator = FeatureAblation(model)
'''
CELL = '''
attributions = ablator.attribute(inputs, target=labels_list)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["_select_targets"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.tensor(target).reshape(len(output), 1)",
                  "torch.tensor(target, device=output.device).reshape(len(output), 1)")
CLEAN = False
