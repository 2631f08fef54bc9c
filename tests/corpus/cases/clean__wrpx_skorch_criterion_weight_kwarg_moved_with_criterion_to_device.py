"""Look-alike: skorch NeuralNetClassifier with `criterion__weight=` a CPU tensor and `device='cuda'`; `_initialize_criterion` moves the criterion module to the net's device.

Source: https://github.com/skorch-dev/skorch/blob/5db0ddc962117a2c3a646910ecd2e70253ff8e87/skorch/net.py
`initialize_criterion` builds `self.criterion_` from `self.criterion(**get_params_for('criterion'))`,
then `_initialize_criterion` does `criterion = to_device(criterion, self.device)` for every criterion;
`infer` sends X with `to_tensor(x, device=self.device)` and `get_loss` sends y_true the same way
before `self.criterion_(y_pred, y_true)`. The class-weight tensor made on the CPU is a buffer of the
criterion and follows it: nothing to report. Stand-in: NeuralNet reduced to initialization, `infer`
and `get_loss` (skorch.utils.to_tensor / to_device as in the library, for tensors and arrays).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def to_device(X, device):
    if device is None:
        return X
    if isinstance(X, dict):
        return {key: to_device(val, device) for key, val in X.items()}
    if isinstance(X, (tuple, list)):
        return type(X)(to_device(x, device) for x in X)
    return X.to(device)

def to_tensor(X, device, accept_sparse=False):
    if isinstance(X, torch.Tensor):
        return to_device(X, device)
    if isinstance(X, dict):
        return {key: to_tensor(val, device) for key, val in X.items()}
    if isinstance(X, (list, tuple)):
        return [to_tensor(x, device) for x in X]
    if isinstance(X, np.ndarray):
        return to_device(torch.as_tensor(X), device)
    raise TypeError("Cannot convert this data type to a torch tensor.")

class NeuralNetClassifier:
    """skorch.NeuralNetClassifier, reduced."""
    def __init__(self, module, criterion=nn.CrossEntropyLoss, device="cpu", **kwargs):
        self.module = module
        self.criterion = criterion
        self.device = device
        self._kwargs = kwargs
        self._criteria = ["criterion"]

    def get_params_for(self, prefix):
        return {k[len(prefix) + 2:]: v for k, v in self._kwargs.items() if k.startswith(prefix + "__")}

    def initialized_instance(self, instance_or_cls, kwargs):
        is_init = isinstance(instance_or_cls, torch.nn.Module)
        if is_init and not kwargs:
            return instance_or_cls
        if is_init:
            return type(instance_or_cls)(**kwargs)
        return instance_or_cls(**kwargs)

    def initialize_criterion(self):
        kwargs = self.get_params_for('criterion')
        criterion = self.initialized_instance(self.criterion, kwargs)
        self.criterion_ = criterion
        return self

    def _initialize_criterion(self):
        self.initialize_criterion()
        for name in self._criteria:
            criterion = getattr(self, name + '_')
            if isinstance(criterion, torch.nn.Module):
                criterion = to_device(criterion, self.device)
                setattr(self, name + '_', criterion)
        return self

    def _initialize_module(self):
        kwargs = self.get_params_for('module')
        module = self.initialized_instance(self.module, kwargs)
        self.module_ = to_device(module, self.device)
        return self

    def initialize(self):
        self._initialize_module()
        self._initialize_criterion()
        self.initialized_ = True
        return self

    def infer(self, x, **fit_params):
        x = to_tensor(x, device=self.device)
        return self.module_(x, **fit_params)

    def get_loss(self, y_pred, y_true, X=None, training=False):
        y_true = to_tensor(y_true, device=self.device)
        return self.criterion_(y_pred, y_true)

class ClassifierModule(nn.Module):
    def __init__(self, num_units=10, nonlin=nn.ReLU()):
        super().__init__()
        self.dense0 = nn.Linear(20, num_units)
        self.nonlin = nonlin
        self.output = nn.Linear(num_units, 2)
    def forward(self, X, **kwargs):
        return self.output(self.nonlin(self.dense0(X)))

X = np.random.randn(64, 20).astype(np.float32)
y = (np.random.rand(64) > 0.8).astype(np.int64)                  # imbalanced: ~20% positives
class_weight = torch.tensor([1.0, 4.0])

net = NeuralNetClassifier(
    ClassifierModule,
    criterion=nn.CrossEntropyLoss,
    criterion__weight=class_weight,
    module__num_units=32,
    device="cuda:0",
)
net.initialize()
'''
CELL = '''
with torch.no_grad():
    y_pred = net.infer(X[:16])
    loss = net.get_loss(y_pred, y[:16], X=X[:16], training=False)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
