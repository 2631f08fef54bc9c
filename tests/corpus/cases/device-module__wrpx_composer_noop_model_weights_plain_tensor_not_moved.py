"""Composer's NoOpModel algorithm swaps in a model whose `weights` is a plain tensor: the trainer moves the model to the GPU, `weights` stays on the CPU.

Source: https://github.com/mosaicml/composer/pull/614
"Fix no_op_model algorithm": running the trainer with `--algorithms no_op_model` on a GPU failed in
`NoOpModelClass.forward` at `return y * self.weights` with "Expected all tensors to be on the same
device, but found at least two devices, cuda:0 and cpu!". `__init__` set
`self.weights = torch.tensor([1.5], requires_grad=True, dtype=torch.float)`, a plain attribute that
`Module.to()` never sees; the merged fix makes it `torch.nn.Parameter(torch.Tensor([1.5]))`.
Stand-ins: ComposerModel, State, Event and the trainer's device move are reduced to what the
algorithm touches; NoOpModelClass / NoOpModel are composer's (metrics and module_surgery left out).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class ComposerModel(nn.Module):
    """composer.models.base.ComposerModel, reduced."""
    def forward(self, batch):
        raise NotImplementedError
    def loss(self, outputs, batch):
        raise NotImplementedError

class Event:
    INIT = "init"
    AFTER_DATALOADER = "after_dataloader"

class State:
    """composer.core.State, reduced to model and batch."""
    def __init__(self, model, batch=None):
        self.model = model
        self.batch = batch
        self.outputs = None

def as_batch_pair(batch):
    x, y = batch
    return x, y

class NoOpModelClass(ComposerModel):
    """Dummy model used for testing. The NoOpModel algorithm uses this to replace a ComposerModel."""
    def __init__(self, original_model):
        super().__init__()
        self.weights = torch.tensor([1.5], requires_grad=True, dtype=torch.float)
        try:
            # For classification
            self.num_classes = original_model.num_classes
        except AttributeError:
            pass

    def loss(self, outputs, batch):
        x, y = as_batch_pair(batch)
        del x  # unused
        return F.mse_loss(outputs, y.to(torch.float32))

    def forward(self, batch):
        x, y = as_batch_pair(batch)
        del x  # unused
        return y * self.weights

class NoOpModel:
    """Runs on Event.INIT and replaces the model with a dummy model of type NoOpModelClass."""
    def match(self, event, state):
        return event == Event.INIT
    def apply(self, event, state, logger=None):
        new_model = NoOpModelClass(state.model)
        state.model = new_model

class ResNet9(ComposerModel):
    """Stand-in for the resnet9_cifar10 yaml's model."""
    def __init__(self, num_classes=10):
        super().__init__()
        self.num_classes = num_classes
        self.net = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, num_classes))
    def forward(self, batch):
        x, _ = batch
        return self.net(x)

device = torch.device("cuda:0")
state = State(model=ResNet9())
algorithm = NoOpModel()
if algorithm.match(Event.INIT, state):
    algorithm.apply(Event.INIT, state)
state.model = state.model.to(device)          # trainer: module_to_device after INIT
state.batch = (torch.randn(8, 3, 32, 32).to(device), torch.randint(0, 10, (8,)).to(device))
'''
CELL = '''
state.outputs = state.model.forward(state.batch)
loss = state.model.loss(state.outputs, state.batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["state.model.weights"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "self.weights = torch.tensor([1.5], requires_grad=True, dtype=torch.float)",
    "self.weights = torch.nn.Parameter(torch.Tensor([1.5]))",
)
CLEAN = False
