"""Ignite `create_supervised_evaluator(model, device="cuda:0")`: CPU batches are moved by `_prepare_batch`, the model by the user.

Source: https://github.com/pytorch/ignite/blob/master/ignite/engine/__init__.py
Since ignite 0.4.0 "device will now only be used to move the input data to the correct device. The
model should be moved by the user": the user writes `model.to(device)` and passes `device` to the
factory; `_prepare_batch` then returns `(convert_tensor(x, device=device, non_blocking=...),
convert_tensor(y, ...))` for every CPU batch, and `supervised_evaluation_step` runs `model(x)` under
no_grad and returns `(y_pred, y)`. Look-alike: a CPU loader next to a GPU model; it runs.
Stand-ins: convert_tensor, _prepare_batch, the evaluation step and a minimal Engine.run loop.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

def convert_tensor(x, device=None, non_blocking=False):
    return x.to(device=device, non_blocking=non_blocking) if device is not None else x

def _prepare_batch(batch, device=None, non_blocking=False):
    x, y = batch
    return (convert_tensor(x, device=device, non_blocking=non_blocking),
            convert_tensor(y, device=device, non_blocking=non_blocking))

def create_supervised_evaluator(model, device=None, non_blocking=False, prepare_batch=_prepare_batch):
    def _inference(engine, batch):
        model.eval()
        with torch.no_grad():
            x, y = prepare_batch(batch, device=device, non_blocking=non_blocking)
            y_pred = model(x)
            return y_pred, y
    return _Engine(_inference)

class _Engine:
    def __init__(self, process_function):
        self._process_function = process_function
        self.outputs = []
    def run(self, data):
        for batch in data:
            self.outputs.append(self._process_function(self, batch))
        return self

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 10, kernel_size=5)
        self.fc1 = nn.Linear(10 * 12 * 12, 50)
        self.fc2 = nn.Linear(50, 10)
    def forward(self, x):
        x = F.relu(F.max_pool2d(self.conv1(x), 2))
        x = torch.flatten(x, 1)
        return F.log_softmax(self.fc2(F.relu(self.fc1(x))), dim=-1)

device = "cuda:0"
model = Net()
model.to(device)
evaluator = create_supervised_evaluator(model, device=device)
val_loader = [(torch.randn(16, 1, 28, 28), torch.randint(0, 10, (16,))) for _ in range(2)]
'''
CELL = '''
state = evaluator.run(val_loader)
nll = sum(F.nll_loss(y_pred, y, reduction="sum") for y_pred, y in state.outputs)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
