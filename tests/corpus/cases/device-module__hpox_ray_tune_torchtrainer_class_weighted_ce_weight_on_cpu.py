"""Ray Tune + TorchTrainer: a class-weighted CrossEntropyLoss built in `train_func` keeps its weight on the CPU.

Source: https://github.com/ray-project/ray/issues/33011
The user tuned a UNet with `Tuner(TorchTrainer(train_func, ...))` and PopulationBasedTraining; every
trial died in `loss = loss_fn(outputs, labels.long())` with "Expected all tensors to be on the same
device, but found at least two devices, cuda:1 and cpu! (when checking argument for argument weight
in method wrapper__nll_loss2d_forward)". `train.torch.prepare_model` moves the model and
`prepare_data_loader` moves the batches to the worker's GPU, but the criterion built with
`nn.CrossEntropyLoss(weight=torch.tensor(class_weights))` is never moved: its `weight` buffer stays
on the CPU. Fix: move the criterion (or its weight) to `train.torch.get_device()`.
Stand-ins: `prepare_model` / `get_device` for a worker that got cuda:1, a tiny segmentation UNet.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

def get_device():                       # ray.train.torch.get_device() on this worker
    return torch.device("cuda:1")

def prepare_model(model):               # ray.train.torch.prepare_model (single worker: no DDP)
    return model.to(get_device())

class UNet(nn.Module):
    def __init__(self, num_kernels=8, n_classes=2):
        super().__init__()
        self.down = nn.Conv2d(3, num_kernels, 3, padding=1)
        self.up = nn.Conv2d(num_kernels, n_classes, 3, padding=1)

    def forward(self, x):
        return self.up(torch.relu(self.down(x)))

config = {"lr": 1e-3, "num_kernels": 8, "batch_size": 4}
class_weights = [0.05, 0.95]                         # background vs atmospheric river pixels
model = prepare_model(UNet(num_kernels=config["num_kernels"]))
criterion = nn.CrossEntropyLoss(weight=torch.tensor(class_weights))
inputs = torch.randn(config["batch_size"], 3, 16, 16, device=get_device())   # prepare_data_loader output
labels = torch.randint(0, 2, (config["batch_size"], 16, 16), device=get_device())
'''
CELL = '''
outputs = model(inputs).squeeze()
loss = criterion(outputs, labels.long())
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["criterion"]
FIX = "namespace"
REFERENCE_FIX = '''
criterion = criterion.to(get_device())
'''
REFERENCE_EDIT = None
CLEAN = False
