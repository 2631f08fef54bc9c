"""gpleiss/temperature_scaling: `ModelWithTemperature` around a GPU classifier; the temperature is an `nn.Parameter` and `_ECELoss` keeps its bin edges as plain CPU tensors.

Source: https://github.com/gpleiss/temperature_scaling/blob/master/temperature_scaling.py
The reference temperature-scaling wrapper registers `self.temperature = nn.Parameter(torch.ones(1) * 1.5)`
so it follows the wrapper to the GPU, expands it to the logits' shape in `temperature_scale`, and
`_ECELoss` stores `bin_lowers`/`bin_uppers` as plain attributes (never moved by `.cuda()`) but only
reads them through `.item()`. Look-alike: CPU tensors on a calibration module beside a GPU model,
CPU-built parameter, all correct. Stand-in: a small classifier; the CELL evaluates NLL before/after
scaling on cuda validation logits (the LBFGS fit and the `.item()`-driven ECE loop need real data).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
from torch.nn import functional as F

class ModelWithTemperature(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model
        self.temperature = nn.Parameter(torch.ones(1) * 1.5)

    def forward(self, input):
        logits = self.model(input)
        return self.temperature_scale(logits)

    def temperature_scale(self, logits):
        temperature = self.temperature.unsqueeze(1).expand(logits.size(0), logits.size(1))
        return logits / temperature

class _ECELoss(nn.Module):
    def __init__(self, n_bins=15):
        super().__init__()
        bin_boundaries = torch.linspace(0, 1, n_bins + 1)
        self.bin_lowers = bin_boundaries[:-1]
        self.bin_uppers = bin_boundaries[1:]

device = torch.device("cuda:0")
orig_model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10))
scaled_model = ModelWithTemperature(orig_model).to(device)
nll_criterion = nn.CrossEntropyLoss().to(device)
ece_criterion = _ECELoss().to(device)
valid_input = torch.randn(128, 32, device=device)
valid_labels = torch.randint(0, 10, (128,), device=device)
'''
CELL = '''
with torch.no_grad():
    logits = scaled_model.model(valid_input)
    before_temperature_nll = nll_criterion(logits, valid_labels)
    after_temperature_nll = nll_criterion(scaled_model.temperature_scale(logits), valid_labels)
    probs = F.softmax(scaled_model(valid_input), dim=1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
