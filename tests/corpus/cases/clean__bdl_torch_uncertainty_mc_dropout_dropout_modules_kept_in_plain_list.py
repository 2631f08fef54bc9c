"""Look-alike: torch-uncertainty's `mc_dropout` wrapper keeps the model's dropout layers in a plain Python list that `Module.to()` never visits.

Source: https://github.com/torch-uncertainty/torch-uncertainty/blob/main/src/torch_uncertainty/models/wrappers/mc_dropout.py
`_MCDropout.__init__` stores `self.filtered_modules = list(filter(lambda m: isinstance(m,
_DropoutNd), core_model.modules()))` — submodules held in a list attribute, the "list-held submodule
left behind by `.to()`" pattern. Here it is harmless: the entries are the very dropout modules that
live inside `self.core_model` (registered, moved with it) and they have no parameters or buffers;
the list is only used by the overridden `train()` to keep dropout active in eval mode. The MC forward
repeats the CUDA batch `num_estimators` times on its own device. Stand-in: `_MCDropout` and
`mc_dropout` (classification) as in torch-uncertainty, einops' `repeat(x, "b ... -> (m b) ...")`
written with `Tensor.repeat`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.nn.modules.dropout import _DropoutNd

def _dropout_checks(filtered_modules, num_estimators):
    if not filtered_modules:
        raise ValueError("No dropout module found in the model.")
    if not any(mod.p > 0.0 for mod in filtered_modules):
        raise ValueError("At least one dropout module must have a dropout rate > 0.0.")
    if num_estimators <= 0:
        raise ValueError("`num_estimators` must be strictly positive to use MC Dropout.")

class _MCDropout(nn.Module):
    def __init__(self, core_model, num_estimators, last_layer, on_batch):
        super().__init__()
        filtered_modules = list(filter(lambda m: isinstance(m, _DropoutNd), core_model.modules()))
        if last_layer:
            filtered_modules = filtered_modules[-1:]
        _dropout_checks(filtered_modules, num_estimators)
        self.last_layer = last_layer
        self.on_batch = on_batch
        self.core_model = core_model
        self.num_estimators = num_estimators
        self.filtered_modules = filtered_modules

    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise TypeError("Training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        for module in self.filtered_modules:
            module.train()
        return self

    def forward(self, x):
        if self.training:
            return self.core_model(x)
        if self.on_batch:
            x = x.repeat(self.num_estimators, *([1] * (x.dim() - 1)))   # repeat(x, "b ... -> (m b) ...")
            return self.core_model(x)
        return torch.cat([self.core_model(x) for _ in range(self.num_estimators)], dim=0)

def mc_dropout(core_model, num_estimators, last_layer=False, on_batch=True, task="classification"):
    return _MCDropout(core_model=core_model, num_estimators=num_estimators,
                      last_layer=last_layer, on_batch=on_batch)

device = torch.device("cuda:0")
core = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Dropout(0.2),
                     nn.Linear(128, 128), nn.ReLU(), nn.Dropout(0.2), nn.Linear(128, 10))
model = mc_dropout(core, num_estimators=16, last_layer=False, on_batch=True).to(device)
model.eval()
x_test = torch.randn(64, 32).to(device)
'''
CELL = '''
with torch.no_grad():
    logits = model(x_test)
probs = logits.softmax(-1).reshape(16, 64, 10).mean(0)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
