"""Look-alike: TENT reconfigures BatchNorm (running stats dropped to None) and adapts on the model's device.

Source: https://github.com/DequanWang/tent/blob/master/tent.py
`configure_model` puts the model in train mode, freezes everything, re-enables grads only for
BatchNorm affine params and sets `m.track_running_stats = False; m.running_mean = None;
m.running_var = None`; `copy_model_and_optimizer` deep-copies the state dicts; `forward_and_adapt`
minimises `softmax_entropy(outputs).mean(0)` and steps the optimizer. Buffers set to None and copied
states look like things `Module.to()` might miss, but everything lives with the model. Stand-in:
tent.py's functions and the Tent wrapper around a small BN CNN; meta plays the GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
from copy import deepcopy
import torch
import torch.nn as nn

class Tent(nn.Module):
    def __init__(self, model, optimizer, steps=1, episodic=False):
        super().__init__()
        self.model = model
        self.optimizer = optimizer
        self.steps = steps
        self.episodic = episodic
        self.model_state, self.optimizer_state = copy_model_and_optimizer(self.model, self.optimizer)

    def forward(self, x):
        for _ in range(self.steps):
            outputs = forward_and_adapt(x, self.model, self.optimizer)
        return outputs

def softmax_entropy(x: torch.Tensor) -> torch.Tensor:
    return -(x.softmax(1) * x.log_softmax(1)).sum(1)

@torch.enable_grad()
def forward_and_adapt(x, model, optimizer):
    outputs = model(x)
    loss = softmax_entropy(outputs).mean(0)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    return outputs

def collect_params(model):
    params, names = [], []
    for nm, m in model.named_modules():
        if isinstance(m, nn.BatchNorm2d):
            for np_, p in m.named_parameters():
                if np_ in ['weight', 'bias']:
                    params.append(p)
                    names.append(f"{nm}.{np_}")
    return params, names

def copy_model_and_optimizer(model, optimizer):
    return deepcopy(model.state_dict()), deepcopy(optimizer.state_dict())

def configure_model(model):
    model.train()
    model.requires_grad_(False)
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.requires_grad_(True)
            m.track_running_stats = False
            m.running_mean = None
            m.running_var = None
    return model

device = torch.device("meta")        # cuda on the user's machine
base_model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
                           nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10)).to(device)
model = configure_model(base_model)
params, param_names = collect_params(model)
optimizer = torch.optim.SGD(params, lr=0.00025, momentum=0.9)
tented_model = Tent(model, optimizer)
x_test = torch.randn(8, 3, 32, 32)
'''
CELL = '''
outputs = tented_model(x_test.to(device))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
