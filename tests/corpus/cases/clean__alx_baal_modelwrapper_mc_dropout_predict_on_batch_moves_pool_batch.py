"""baal `ModelWrapper.predict_on_batch` with MC-Dropout: a CPU pool batch is moved inside the wrapper and replicated in memory for the stochastic passes.

Source: https://github.com/baal-org/baal/blob/master/baal/modelwrapper.py
For Bayesian active learning the model is patched so dropout stays on at inference
(`patch_module`/`MCDropoutModule`), and `predict_on_batch(data, iterations, cuda=True)` moves the CPU
batch with `to_cuda`, stacks it `iterations` times (`stack_in_memory`), runs one forward and reshapes
the output to `[batch, classes, iterations]`. Look-alike: unlabelled pool data kept on the CPU next to
a GPU model, moved by the library on purpose. Stand-in: the wrapper's replicate-in-memory path, an
always-on Dropout, `.to(device)` for `to_cuda`; meta plays cuda (dropout draws random masks).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class Dropout(nn.Dropout):
    def forward(self, input):
        return F.dropout(input, self.p, True, self.inplace)

def patch_module(module):
    for name, child in module.named_children():
        if isinstance(child, nn.Dropout):
            setattr(module, name, Dropout(p=child.p))
        else:
            patch_module(child)
    return module

def stack_in_memory(data, iterations):
    input_shape = data.size()
    batch_size = input_shape[0]
    data = torch.stack([data] * iterations)
    return data.view(batch_size * iterations, *input_shape[1:])

class ModelWrapper:
    def __init__(self, model, criterion, replicate_in_memory=True, device="cpu"):
        self.model = model
        self.criterion = criterion
        self.replicate_in_memory = replicate_in_memory
        self.device = device

    def predict_on_batch(self, data, iterations=1, cuda=False):
        with torch.no_grad():
            if cuda:
                data = data.to(self.device)      # baal: to_cuda(data)
            data = stack_in_memory(data, iterations)
            out = self.model(data)
            out = out.view([iterations, -1, *out.size()[1:]])
            out = out.permute(1, 2, *range(3, out.ndimension()), 0)
            return out

device = torch.device("meta")      # "cuda" in baal's examples
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Dropout(p=0.5), nn.Linear(128, 10))
model = patch_module(model).to(device)
wrapper = ModelWrapper(model, nn.CrossEntropyLoss(), device=device)
pool_batch = torch.randn(16, 64)
'''
CELL = '''
predictions = wrapper.predict_on_batch(pool_batch, iterations=20, cuda=True)
probs = predictions.softmax(1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
