"""ignite's `create_supervised_trainer(..., device=device)` moves the batches, but the model was never moved.

Source: https://github.com/pytorch/ignite/issues/192
"create_supervised_trainer fails if model device is diff from arg device": a maintainer (vfdev-5)
modified the MNIST example so that `model = model.to(device)` was commented out while
`create_supervised_trainer(model, optimizer, F.nll_loss, device=device)` still got `device='cuda'`:
`_prepare_batch` puts `x` and `y` on the device, and `model(x)` fails because the model is still
on the CPU. The team decided the user must move the model (since ignite 0.4 the trainer never
moves it). Stand-in: ignite's `Engine`/`create_supervised_trainer` (reduced), with meta as the
accelerator.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim import SGD

class Engine:
    def __init__(self, process_function):
        self._process_function = process_function
        self.output = None

    def run(self, data, max_epochs=1):
        for _ in range(max_epochs):
            for batch in data:
                self.output = self._process_function(self, batch)
        return self

def _prepare_batch(batch, device=None, non_blocking=False):
    x, y = batch
    return x.to(device, non_blocking=non_blocking), y.to(device, non_blocking=non_blocking)

def create_supervised_trainer(model, optimizer, loss_fn, device=None, non_blocking=False):
    def _update(engine, batch):
        model.train()
        optimizer.zero_grad()
        x, y = _prepare_batch(batch, device=device, non_blocking=non_blocking)
        y_pred = model(x)
        loss = loss_fn(y_pred, y)
        loss.backward()
        optimizer.step()
        return loss          # loss.item() in ignite; a meta tensor has no value
    return Engine(_update)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(784, 64)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x):
        x = F.relu(self.fc1(x.view(-1, 784)))
        return F.log_softmax(self.fc2(x), dim=-1)

train_loader = [(torch.randn(8, 1, 28, 28), torch.randint(0, 10, (8,))) for _ in range(2)]
model = Net()
device = "cpu"
if True:                       # torch.cuda.is_available()
    device = "meta"            # 'cuda'
#   model = model.to(device)
optimizer = SGD(model.parameters(), lr=0.01, momentum=0.5)
trainer = create_supervised_trainer(model, optimizer, F.nll_loss, device=device)
'''
CELL = '''
trainer.run(train_loader, max_epochs=1)
'''
EXPECT_ERROR = "is not on the expected device"
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
