"""Composer SelectiveBackprop runs a selection forward pass on `state.batch` at AFTER_DATALOADER, but after the trainer started moving only microbatches to the GPU that batch is still on the CPU.

Source: https://github.com/mosaicml/composer/pull/3487
"Load Microbatches instead of Entire Batches to GPU" split the batch on the CPU and moved each
microbatch to the device inside the training loop, so at Event.AFTER_DATALOADER `state.batch` is a
CPU `(input, target)` tuple while `state.model` is on the GPU. SelectiveBackprop's `apply` feeds the
whole batch through the model to rank the per-sample losses; the author explains in review
("selective backprop forwards the whole batch to determine what fraction of the minibatch to use for
gradient calc - unit tests also b[roke]") and the merged PR adds
`state.batch = state.device.batch_to_device(state.batch)` at the top of `apply`.
Stand-ins: State, DeviceGPU and ComposerModel reduced to what `apply` touches; select_using_loss and
SelectiveBackprop.apply are composer's (precision context and scale_factor path left out; the
`x[idx]` gathers are written as `index_select`, which fake cuda tensors support).
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import inspect
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class Event:
    INIT = "init"
    AFTER_DATALOADER = "after_dataloader"

class DeviceGPU:
    """composer.devices.DeviceGPU, reduced."""
    def __init__(self, device_id=0):
        self._device = torch.device(f"cuda:{device_id}")
    def module_to_device(self, module):
        return module.to(self._device)
    def tensor_to_device(self, tensor):
        return tensor.to(self._device, non_blocking=True)
    def batch_to_device(self, batch):
        if isinstance(batch, torch.Tensor):
            return self.tensor_to_device(batch)
        if isinstance(batch, (tuple, list)):
            return type(batch)(self.batch_to_device(b) for b in batch)
        if isinstance(batch, dict):
            return {k: self.batch_to_device(v) for k, v in batch.items()}
        return batch

class State:
    """composer.core.State, reduced."""
    def __init__(self, model, device, batch=None):
        self.model = model
        self.device = device
        self.batch = batch
    def batch_get_item(self, key):
        return self.batch[key]
    def batch_set_item(self, key, value):
        batch = list(self.batch)
        batch[key] = value
        self.batch = tuple(batch)

class ComposerClassifier(nn.Module):
    """composer.models.ComposerClassifier, reduced."""
    def __init__(self, module):
        super().__init__()
        self.module = module
    def forward(self, batch):
        inputs, _ = batch
        return self.module(inputs)
    def loss(self, outputs, batch, *args, **kwargs):
        _, targets = batch
        return F.cross_entropy(outputs, targets, *args, **kwargs)

def select_using_loss(input, target, model, loss_fun, keep=0.5, scale_factor=1):
    if callable(loss_fun):
        sig = inspect.signature(loss_fun)
        if not 'reduction' in sig.parameters:
            raise TypeError('Loss function `loss_fun` must take a keyword argument `reduction`.')
    with torch.no_grad():
        N = input.shape[0]
        X_scaled = input
        out = model(X_scaled)
        losses = loss_fun(out, target, reduction='none')

        sorted_idx = torch.argsort(losses)
        n_select = int(keep * N)

        percs = np.arange(0.5, N, 1) / N
        probs = percs**((1.0 / keep) - 1.0)
        probs = probs / np.sum(probs)
        select_percs_idx = np.random.choice(N, n_select, replace=False, p=probs)
        select_idx = sorted_idx.index_select(0, torch.as_tensor(select_percs_idx, device=sorted_idx.device))

    return input.index_select(0, select_idx), target.index_select(0, select_idx)

class SelectiveBackprop:
    def __init__(self, start=0.5, end=0.9, keep=0.5, scale_factor=1., interrupt=2, input_key=0, target_key=1):
        self.start = start
        self.end = end
        self.keep = keep
        self.scale_factor = scale_factor
        self.interrupt = interrupt
        self._loss_fn = None  # set on Event.INIT
        self.input_key, self.target_key = input_key, target_key

    def apply(self, event, state, logger=None):
        if event == Event.INIT:
            if self._loss_fn is None:
                self._loss_fn = state.model.loss
            return

        input, target = state.batch_get_item(key=self.input_key), state.batch_get_item(key=self.target_key)
        assert isinstance(input, torch.Tensor) and isinstance(target, torch.Tensor), \\
            'Multiple tensors not supported for this method yet.'

        model = lambda X: state.model((X, None))

        def loss(p, y, reduction='none'):
            assert self._loss_fn is not None, 'loss_fn should be set on Event.INIT'
            return self._loss_fn(p, (torch.Tensor(), y), reduction=reduction)

        new_input, new_target = select_using_loss(input, target, model, loss, self.keep, self.scale_factor)
        state.batch_set_item(self.input_key, new_input)
        state.batch_set_item(self.target_key, new_target)

device = DeviceGPU()
model = ComposerClassifier(nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 256), nn.ReLU(), nn.Linear(256, 10)))
state = State(model=device.module_to_device(model), device=device)
sb = SelectiveBackprop(start=0.5, end=0.9, keep=0.5)
sb.apply(Event.INIT, state)

# the training loop now leaves the batch on the CPU; microbatches are moved later, one at a time
state.batch = (torch.randn(32, 3, 32, 32), torch.randint(0, 10, (32,)))
'''
CELL = '''
sb.apply(Event.AFTER_DATALOADER, state)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["state.batch"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        input, target = state.batch_get_item(key=self.input_key), state.batch_get_item(key=self.target_key)\n",
    "        state.batch = state.device.batch_to_device(state.batch)\n"
    "        input, target = state.batch_get_item(key=self.input_key), state.batch_get_item(key=self.target_key)\n",
)
CLEAN = False
