"""Poutyne (then PyToune) `Model.to(device)` moved the network but not a loss function that is itself a module holding a class-weight tensor.

Source: https://github.com/freud14/poutyne/pull/25
"Loading loss on gpu or cpu": "Amended device loading capabilities to also include the loss function if
the loss is a pytorch module. Some loss function actually uses tensor and need to be on the same device
as the rest of the modules". Before the merged fix `Model.to/cuda/cpu` only did `self.model.to(...)`;
a weighted `nn.CrossEntropyLoss(weight=...)` kept its weight on the CPU and the loss call failed once
the network and the batches were on the GPU. The fix adds
`if isinstance(self.loss_function, torch.nn.Module): self.loss_function.to(self.device)`.
Stand-in: pytoune.framework.Model reduced to `to` and `evaluate_on_batch` (the batch is moved with
`torch_to` as in the library).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def torch_to(obj, device):
    if isinstance(obj, (list, tuple)):
        return type(obj)(torch_to(o, device) for o in obj)
    return obj.to(device)

class Model:
    """pytoune.framework.Model, reduced."""
    def __init__(self, model, optimizer, loss_function, metrics=[]):
        self.model = model
        self.optimizer = optimizer
        self.loss_function = loss_function
        self.metrics = metrics
        self.device = None

    def _process_input(self, *args):
        args = tuple(torch.as_tensor(a) if isinstance(a, np.ndarray) else a for a in args)
        if self.device is not None:
            args = torch_to(args, self.device)
        return args[0] if len(args) == 1 else args

    def evaluate_on_batch(self, x, y):
        self.model.eval()
        with torch.no_grad():
            x, y = self._process_input(x, y)
            pred_y = self.model(x)
            loss = self.loss_function(pred_y, y)
        return loss

    def to(self, device):
        self.device = device
        self.model.to(self.device)
        return self

num_features, num_classes = 20, 3
network = nn.Sequential(nn.Linear(num_features, 64), nn.ReLU(), nn.Linear(64, num_classes))
optimizer = torch.optim.SGD(network.parameters(), lr=0.1)
class_weights = torch.tensor([1.0, 5.0, 10.0])          # imbalanced classes
criterion = nn.CrossEntropyLoss(weight=class_weights)

model = Model(network, optimizer, criterion)
device = torch.device("cuda:0")
model.to(device)

x_valid = np.random.randn(32, num_features).astype(np.float32)
y_valid = np.random.randint(0, num_classes, size=32)
'''
CELL = '''
loss = model.evaluate_on_batch(x_valid, y_valid)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["criterion"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        self.model.to(self.device)\n        return self\n",
    "        self.model.to(self.device)\n"
    "        if isinstance(self.loss_function, torch.nn.Module):\n"
    "            self.loss_function.to(self.device)\n"
    "        return self\n",
)
CLEAN = False
