"""Look-alike: ignite's `Loss` metric with its default `device=cpu` keeps a CPU running sum while the evaluator feeds it cuda predictions; `update` moves each batch loss with `.to(self._device)`.

Source: https://github.com/pytorch/ignite/blob/de08e799cfb55a6cf4aa778575d6bad725385453/ignite/metrics/loss.py
`reset` makes `self._sum = torch.tensor(0.0, device=self._device)`; `update` computes
`average_loss = self._loss_fn(y_pred, y, **kwargs).detach()` on the data's device and accumulates
`self._sum += average_loss.to(self._device) * n`. A CPU accumulator next to cuda outputs and a
class-weighted loss on cuda, on purpose: nothing to report. Stand-ins: the Metric base and the
evaluator loop reduced to reset/update over two batches (`compute` uses `.item()`, so the cell
takes the ratio as a tensor).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class Loss:
    """ignite.metrics.Loss, without the Metric base class machinery."""
    def __init__(self, loss_fn, output_transform=lambda x: x, batch_size=len, device=torch.device("cpu")):
        self._loss_fn = loss_fn
        self._output_transform = output_transform
        self._batch_size = batch_size
        self._device = torch.device(device)
        self.reset()

    def reset(self):
        self._sum = torch.tensor(0.0, device=self._device)
        self._num_examples = 0

    def update(self, output):
        if len(output) == 2:
            y_pred, y = output
            kwargs = {}
        else:
            y_pred, y, kwargs = output
        average_loss = self._loss_fn(y_pred, y, **kwargs).detach()
        if len(average_loss.shape) != 0:
            raise ValueError("loss_fn did not return the average loss.")
        n = self._batch_size(y)
        self._sum += average_loss.to(self._device) * n
        self._num_examples += n

device = torch.device("cuda:0")
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4)).to(device)
criterion = nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0, 2.0, 4.0])).to(device)
val_loss = Loss(criterion)                    # accumulates on the CPU (default device)
batches = [(torch.randn(8, 16), torch.randint(0, 4, (8,))) for _ in range(2)]
'''
CELL = '''
model.eval()
val_loss.reset()
with torch.no_grad():
    for x, y in batches:
        x, y = x.to(device, non_blocking=True), y.to(device, non_blocking=True)
        y_pred = model(x)
        val_loss.update((y_pred, y))
avg = val_loss._sum / val_loss._num_examples
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
