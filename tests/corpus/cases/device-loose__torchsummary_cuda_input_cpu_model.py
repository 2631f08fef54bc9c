"""torchsummary.summary on a model that was never moved: the summary's probe input is made on CUDA.

Source: https://github.com/sksq96/pytorch-summary/issues/16
`print(summary(model, (3, 30, 16)))` raised "Input type (torch.cuda.FloatTensor) and weight type
(torch.FloatTensor) should be the same" although "the model is training without an issue". The
summary's `device="cuda"` default builds its random probe batch on the GPU while this model lived
on the CPU; the reporter's workaround was `summary(model.to(device), (3, 30, 16))`. Stand-in:
`summary` reduced to the hook registration and probe forward; a Linear classifier (convolution
device checks are not simulated).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
from collections import OrderedDict
import torch
from torch import nn

def summary(model, input_size, batch_size=-1, device="cuda:0"):
    summary_dict = OrderedDict()
    hooks = []

    def register_hook(module):
        def hook(module, inp, out):
            key = f"{module.__class__.__name__}-{len(summary_dict) + 1}"
            summary_dict[key] = {"output_shape": list(out.shape),
                                 "nb_params": sum(p.numel() for p in module.parameters(recurse=False))}
        if not isinstance(module, (nn.Sequential, nn.ModuleList)) and module is not model:
            hooks.append(module.register_forward_hook(hook))

    x = torch.rand(2, *input_size, device=device)
    model.apply(register_hook)
    try:
        model(x)
    finally:
        for h in hooks:
            h.remove()
    return summary_dict

model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 30 * 16, 64), nn.ReLU(), nn.Linear(64, 2))
'''
CELL = '''
with torch.no_grad():
    print(summary(model, (3, 30, 16)))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model = model.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
