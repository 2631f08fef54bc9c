"""Look-alike: an ignite `Accuracy` metric keeps its counters on the CPU and is updated with CUDA predictions.

Source: https://github.com/pytorch/ignite/pull/1232
"Make Metrics accumulate values on device specified by user": ignite metrics take a `device`
(default CPU) for their accumulators, and `update` moves each batch's count there
(`self._num_correct += torch.sum(correct).to(self._device)`), so a metric on the CPU fed CUDA
`y_pred`/`y` is the intended layout (the PR fixed the TPU case where the default was `None`).
Stand-in: `Accuracy.update` of that version (multiclass path), a small model on the GPU.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class Accuracy:
    def __init__(self, device=torch.device("cpu")):
        self._device = device
        self.reset()

    def reset(self):
        self._num_correct = torch.tensor(0, device=self._device)
        self._num_examples = 0

    def update(self, output):
        y_pred, y = output
        indices = torch.argmax(y_pred, dim=1)
        correct = torch.eq(indices, y).view(-1)
        self._num_correct += torch.sum(correct).to(self._device)
        self._num_examples += correct.shape[0]

device = "cuda:0"
model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 5)).to(device)
val_loader = [(torch.randn(8, 20), torch.randint(0, 5, (8,))) for _ in range(3)]
accuracy = Accuracy()
'''
CELL = '''
model.eval()
with torch.no_grad():
    for x, y in val_loader:
        x, y = x.to(device), y.to(device)
        y_pred = model(x)
        accuracy.update((y_pred, y))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
