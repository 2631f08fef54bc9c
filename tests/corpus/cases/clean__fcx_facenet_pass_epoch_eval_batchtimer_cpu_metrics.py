"""Look-alike: facenet-pytorch `training.pass_epoch` evaluates on the GPU and accumulates loss/metrics as CPU tensors, including `BatchTimer`'s.

Source: https://github.com/timesler/facenet-pytorch (models/utils/training.py, examples/finetune.ipynb)
In the fine-tuning example the validation pass is `resnet.eval()` then
`training.pass_epoch(resnet, loss_fn, val_loader, batch_metrics=metrics, show_running=True, device=device)`
with `metrics = {'fps': training.BatchTimer(), 'acc': training.accuracy}`. `pass_epoch` moves `x` and `y` to
`device`; `BatchTimer.__call__` returns a fresh CPU `torch.tensor(elapsed)`, `accuracy` compares GPU
predictions with GPU labels, and every metric and the loss are `.detach().cpu()`-ed before being summed.
The CPU timer tensor never meets a GPU tensor. Stand-ins: InceptionResnetV1(classify=True) reduced to a
conv + logits head, the val loader as CPU batches from a list, Logger's progress printing dropped.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import time
import torch
from torch import nn

class BatchTimer(object):
    def __init__(self, rate=True, per_sample=True):
        self.start = time.time()
        self.end = None
        self.rate = rate
        self.per_sample = per_sample
    def __call__(self, y_pred, y):
        self.end = time.time()
        elapsed = self.end - self.start
        self.start = self.end
        self.end = None
        if self.per_sample:
            elapsed /= len(y_pred)
        if self.rate:
            elapsed = 1 / max(elapsed, 1e-9)
        return torch.tensor(elapsed)

def accuracy(logits, y):
    _, preds = torch.max(logits, 1)
    return (preds == y).float().mean()

def pass_epoch(model, loss_fn, loader, optimizer=None, scheduler=None,
               batch_metrics={'time': BatchTimer()}, show_running=True, device='cpu'):
    loss = 0
    metrics = {}
    for i_batch, (x, y) in enumerate(loader):
        x = x.to(device)
        y = y.to(device)
        y_pred = model(x)
        loss_batch = loss_fn(y_pred, y)
        if model.training:
            loss_batch.backward()
            optimizer.step()
            optimizer.zero_grad()
        metrics_batch = {}
        for metric_name, metric_fn in batch_metrics.items():
            metrics_batch[metric_name] = metric_fn(y_pred, y).detach().cpu()
            metrics[metric_name] = metrics.get(metric_name, 0) + metrics_batch[metric_name]
        loss_batch = loss_batch.detach().cpu()
        loss += loss_batch
    if model.training and scheduler is not None:
        scheduler.step()
    loss = loss / (i_batch + 1)
    metrics = {k: v / (i_batch + 1) for k, v in metrics.items()}
    return loss, metrics

class InceptionResnetV1(nn.Module):
    def __init__(self, classify=True, num_classes=8):
        super().__init__()
        self.conv2d_1a = nn.Sequential(nn.Conv2d(3, 32, 3, stride=2, bias=False), nn.BatchNorm2d(32), nn.ReLU())
        self.avgpool_1a = nn.AdaptiveAvgPool2d(1)
        self.last_linear = nn.Linear(32, 512, bias=False)
        self.logits = nn.Linear(512, num_classes)
        self.classify = classify
    def forward(self, x):
        x = self.avgpool_1a(self.conv2d_1a(x)).flatten(1)
        x = self.last_linear(x)
        return self.logits(x) if self.classify else nn.functional.normalize(x, p=2, dim=1)

device = torch.device('cuda:0')
resnet = InceptionResnetV1(classify=True, num_classes=8).to(device)
loss_fn = torch.nn.CrossEntropyLoss()
metrics = {'fps': BatchTimer(), 'acc': accuracy}
val_loader = [(torch.randn(4, 3, 40, 40), torch.randint(0, 8, (4,))) for _ in range(3)]   # DataLoader(dataset, sampler=SubsetRandomSampler(val_inds))
'''
CELL = '''
resnet.eval()
val_loss, val_metrics = pass_epoch(
    resnet, loss_fn, val_loader,
    batch_metrics=metrics, show_running=True, device=device
)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
