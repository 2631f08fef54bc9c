"""Ray Train: `prepare_data_loader` wraps a CPU DataLoader so every batch arrives on the worker's GPU.

Source: https://github.com/ray-project/ray/blob/master/python/ray/train/torch/train_loop_utils.py
In `train_func`, `model = train.torch.prepare_model(model)` puts the model on
`train.torch.get_device()` and `dataloader = train.torch.prepare_data_loader(dataloader)` returns a
`_WrappedDataLoader` whose `__iter__` moves each batch (`_move_to_device`, recursing into tuples and
lists) to the same device. The user's loop then uses `X, y` straight from the loader with no `.to()`.
Look-alike: a loader built from CPU tensors feeding a cuda:1 model without explicit moves; it runs.
Stand-ins: get_device (a worker assigned cuda:1), prepare_model and the wrapper; evaluation only.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def get_device():
    return torch.device("cuda:1")

def prepare_model(model):
    return model.to(get_device())

class _WrappedDataLoader:
    def __init__(self, base_dataloader, device):
        self._dataloader = base_dataloader
        self.device = device

    def _move_to_device(self, item):
        if isinstance(item, (tuple, list)):
            return type(item)(self._move_to_device(i) for i in item)
        return item.to(self.device, non_blocking=True)

    def __iter__(self):
        for item in self._dataloader:
            yield self._move_to_device(item)

def prepare_data_loader(data_loader):
    return _WrappedDataLoader(data_loader, get_device())

model = prepare_model(nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 512), nn.ReLU(), nn.Linear(512, 10)))
test_dataloader = prepare_data_loader([(torch.randn(64, 1, 28, 28), torch.randint(0, 10, (64,))) for _ in range(2)])
loss_fn = nn.CrossEntropyLoss()
'''
CELL = '''
model.eval()
test_loss, correct = 0, 0
with torch.no_grad():
    for X, y in test_dataloader:
        pred = model(X)
        test_loss += loss_fn(pred, y)
        correct += (pred.argmax(1) == y).type(torch.float).sum()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
