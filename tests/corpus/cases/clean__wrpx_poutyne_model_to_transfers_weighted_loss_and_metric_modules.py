"""Look-alike: a Poutyne Model with a class-weighted CrossEntropyLoss built on the CPU; `model.to(device)` also moves the loss and metric modules.

Source: https://github.com/GRAAL-Research/poutyne/blob/faa19522242e38475ac71b60c7e968bd4476dc76/poutyne/framework/model.py
`Model.to` ends with `_transfer_loss_and_metrics_modules_to_right_device()`, which calls
`self.loss_function.to(self.device)` and `metric.to(self.device)` for every module metric; batches go
through `preprocess_input` (`numpy_to_torch`, then `torch_to(args, self.device)`) before
`self.network(*x)` and `self.loss_function(pred_y, y)` in `_compute_loss_and_metrics`. The weight
tensor the user made on the CPU is moved with the loss: nothing to report. Stand-in: Model reduced to
those methods (single device, no data_parallel), a module metric as a batch metric.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def numpy_to_torch(obj):
    if isinstance(obj, np.ndarray):
        return torch.from_numpy(obj)
    if isinstance(obj, (list, tuple)):
        return type(obj)(numpy_to_torch(o) for o in obj)
    return obj

def torch_to(obj, *args, **kwargs):
    if isinstance(obj, (list, tuple)):
        return type(obj)(torch_to(o, *args, **kwargs) for o in obj)
    return obj.to(*args, **kwargs)

class Model:
    """poutyne.Model, reduced to one device and the evaluation path."""
    def __init__(self, network, optimizer, loss_function, *, batch_metrics=None):
        self.network = network
        self.optimizer = optimizer
        self.loss_function = loss_function
        self.batch_metrics = list(batch_metrics or [])
        self.epoch_metrics = []
        self.device = None
        self.other_device = None

    def _process_input(self, *args):
        args = numpy_to_torch(args)
        if self.device is not None:
            args = torch_to(args, self.device)
        return args[0] if len(args) == 1 else args

    def preprocess_input(self, x, y=None):
        if y is not None:
            x, y = self._process_input(x, y)
        else:
            x = self._process_input(x)
        x = x if isinstance(x, (tuple, list)) else (x,)
        return (x, y) if y is not None else x

    def _compute_batch_metrics(self, pred_y, y):
        return [metric(pred_y, y) for metric in self.batch_metrics]

    def _compute_loss_and_metrics(self, x, y):
        x, y = self.preprocess_input(x, y)
        pred_y = self.network(*x)
        loss = self.loss_function(pred_y, y)
        with torch.no_grad():
            batch_metrics = self._compute_batch_metrics(pred_y, y)
        return loss, batch_metrics, pred_y

    def evaluate_on_batch(self, x, y):
        self.network.eval()
        with torch.no_grad():
            loss, batch_metrics, pred_y = self._compute_loss_and_metrics(x, y)
        return loss, batch_metrics

    def to(self, device):
        self.device = device
        self.network.to(self.device)
        return self._transfer_loss_and_metrics_modules_to_right_device()

    def _transfer_loss_and_metrics_modules_to_right_device(self):
        if isinstance(self.loss_function, torch.nn.Module):
            self.loss_function.to(self.device)
        for metric in self.batch_metrics + self.epoch_metrics:
            if isinstance(metric, torch.nn.Module):
                metric.to(self.device)
        return self

class WeightedAccuracy(nn.Module):
    """A user metric that is a module with its own per-class weights."""
    def __init__(self, class_weights):
        super().__init__()
        self.register_buffer("class_weights", class_weights)
    def forward(self, y_pred, y_true):
        w = self.class_weights.gather(0, y_true)
        return ((y_pred.argmax(1) == y_true).float() * w).sum() / w.sum()

num_features, num_classes = 20, 3
network = nn.Sequential(nn.Linear(num_features, 64), nn.ReLU(), nn.Linear(64, num_classes))
optimizer = torch.optim.SGD(network.parameters(), lr=0.1)
class_weights = torch.tensor([1.0, 5.0, 10.0])
criterion = nn.CrossEntropyLoss(weight=class_weights)

model = Model(network, optimizer, criterion, batch_metrics=[WeightedAccuracy(class_weights)])
device = torch.device("cuda:0")
model.to(device)

x_valid = np.random.randn(32, num_features).astype(np.float32)
y_valid = np.random.randint(0, num_classes, size=32)
'''
CELL = '''
loss, metrics = model.evaluate_on_batch(x_valid, y_valid)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
