"""Ignite `Accuracy` attached to a GPU evaluator keeps its counters on the metric's own device (CPU by default).

Source: https://github.com/pytorch/ignite/blob/master/ignite/metrics/accuracy.py
Since ignite 0.4.2 every metric takes `device=torch.device("cpu")` and accumulates there:
`update()` computes `correct = torch.eq(indices, y).view(-1)` on the model's device and then
`self._num_correct += torch.sum(correct).to(self._device)`. The evaluator's `y_pred`/`y` are on
cuda:0 while `_num_correct` is a CPU tensor on purpose. Look-alike: cuda outputs meeting a CPU
accumulator, moved explicitly; it runs.
Stand-in: ignite's Accuracy update/compute for multiclass outputs and an evaluator step.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Accuracy:
    def __init__(self, output_transform=lambda x: x, device=torch.device("cpu")):
        self._output_transform = output_transform
        self._device = torch.device(device)
        self.reset()

    def reset(self):
        self._num_correct = torch.tensor(0, device=self._device)
        self._num_examples = 0

    def update(self, output):
        y_pred, y = output[0].detach(), output[1].detach()
        indices = torch.argmax(y_pred, dim=1)
        correct = torch.eq(indices, y).view(-1)
        self._num_correct += torch.sum(correct).to(self._device)
        self._num_examples += correct.shape[0]

    def compute(self):
        return self._num_correct / self._num_examples

device = torch.device("cuda:0")
model = nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 128), nn.ReLU(), nn.Linear(128, 10)).to(device)
model.eval()
metric = Accuracy()
batches = [(torch.randn(32, 1, 28, 28), torch.randint(0, 10, (32,))) for _ in range(3)]   # cpu loader
'''
CELL = '''
for x, y in batches:
    x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)   # _prepare_batch
    y_pred = model(x)
    metric.update((y_pred, y))
acc = metric.compute()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
