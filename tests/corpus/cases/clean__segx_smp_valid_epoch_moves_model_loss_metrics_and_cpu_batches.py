"""Look-alike: segmentation_models.pytorch's ValidEpoch is handed a CPU model, CPU loss/metric objects and a CPU DataLoader; it moves all of them to `device` itself.

Source: https://github.com/qubvel-org/segmentation_models.pytorch/blob/master/segmentation_models_pytorch/utils/train.py
The smp example notebooks build `model = smp.Unet(...)`, `loss = smp.utils.losses.DiceLoss()`,
`metrics = [smp.utils.metrics.IoU(threshold=0.5)]` without any device, then
`ValidEpoch(model, loss=loss, metrics=metrics, device=DEVICE)`. `Epoch.__init__` calls
`_to_device()` (model, loss and every metric `.to(self.device)`), and `run()` moves each `(x, y)`
batch with `x.to(self.device), y.to(self.device)` before `batch_update`. The CPU objects in the
namespace are expected. Nothing to report. Stand-ins: a two-level Unet, smp.utils DiceLoss / IoU
(sigmoid activation, thresholded IoU) and AverageValueMeter; tqdm and the `.numpy()` of each logged
value dropped (simulation).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

def _threshold(x, threshold=None):
    return (x > threshold).type(x.dtype) if threshold is not None else x

def f_score(pr, gt, beta=1, eps=1e-7, threshold=None):
    pr = _threshold(pr, threshold=threshold)
    tp = torch.sum(gt * pr)
    fp = torch.sum(pr) - tp
    fn = torch.sum(gt) - tp
    return ((1 + beta ** 2) * tp + eps) / ((1 + beta ** 2) * tp + beta ** 2 * fn + fp + eps)

def iou(pr, gt, eps=1e-7, threshold=None):
    pr = _threshold(pr, threshold=threshold)
    intersection = torch.sum(gt * pr)
    union = torch.sum(gt) + torch.sum(pr) - intersection + eps
    return (intersection + eps) / union

class DiceLoss(nn.Module):
    __name__ = "dice_loss"
    def __init__(self, eps=1.0, beta=1.0):
        super().__init__()
        self.eps, self.beta = eps, beta
    def forward(self, y_pr, y_gt):
        return 1 - f_score(torch.sigmoid(y_pr), y_gt, beta=self.beta, eps=self.eps)

class IoU(nn.Module):
    __name__ = "iou_score"
    def __init__(self, eps=1e-7, threshold=0.5):
        super().__init__()
        self.eps, self.threshold = eps, threshold
    def forward(self, y_pr, y_gt):
        return iou(torch.sigmoid(y_pr), y_gt, eps=self.eps, threshold=self.threshold)

class AverageValueMeter:
    def __init__(self):
        self.values = []
    def add(self, value):
        self.values.append(value)
    @property
    def mean(self):
        return sum(self.values) / len(self.values)

class Epoch:
    def __init__(self, model, loss, metrics, stage_name, device="cpu", verbose=True):
        self.model = model
        self.loss = loss
        self.metrics = metrics
        self.stage_name = stage_name
        self.verbose = verbose
        self.device = device
        self._to_device()

    def _to_device(self):
        self.model.to(self.device)
        self.loss.to(self.device)
        for metric in self.metrics:
            metric.to(self.device)

    def run(self, dataloader):
        self.on_epoch_start()
        logs = {}
        loss_meter = AverageValueMeter()
        metrics_meters = {metric.__name__: AverageValueMeter() for metric in self.metrics}
        for x, y in dataloader:
            x, y = x.to(self.device), y.to(self.device)
            loss, y_pred = self.batch_update(x, y)
            loss_meter.add(loss.cpu().detach())                 # .numpy()
            logs.update({self.loss.__name__: loss_meter.mean})
            for metric_fn in self.metrics:
                metrics_meters[metric_fn.__name__].add(metric_fn(y_pred, y).cpu().detach())
            logs.update({k: v.mean for k, v in metrics_meters.items()})
        return logs

class ValidEpoch(Epoch):
    def __init__(self, model, loss, metrics, device="cpu", verbose=True):
        super().__init__(model=model, loss=loss, metrics=metrics, stage_name="valid", device=device, verbose=verbose)
    def on_epoch_start(self):
        self.model.eval()
    def batch_update(self, x, y):
        with torch.no_grad():
            prediction = self.model.forward(x)
            loss = self.loss(prediction, y)
        return loss, prediction

class Unet(nn.Module):
    """Stand-in: a two-level encoder/decoder with one skip connection."""
    def __init__(self, in_channels=3, classes=1):
        super().__init__()
        self.enc1 = nn.Sequential(nn.Conv2d(in_channels, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU())
        self.enc2 = nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU())
        self.dec = nn.Sequential(nn.Conv2d(16 + 8, 8, 3, padding=1), nn.ReLU())
        self.segmentation_head = nn.Conv2d(8, classes, 3, padding=1)
    def forward(self, x):
        f1 = self.enc1(x)
        f2 = self.enc2(f1)
        up = F.interpolate(f2, scale_factor=2, mode="nearest")
        return self.segmentation_head(self.dec(torch.cat([up, f1], dim=1)))

DEVICE = "cuda:0"
model = Unet(in_channels=3, classes=1)                 # smp.Unet(ENCODER, encoder_weights=..., classes=1)
loss = DiceLoss()                                       # smp.utils.losses.DiceLoss()
metrics = [IoU(threshold=0.5)]                          # smp.utils.metrics.IoU(threshold=0.5)

g = torch.Generator().manual_seed(0)
valid_loader = [(torch.randn(2, 3, 32, 32, generator=g), (torch.rand(2, 1, 32, 32, generator=g) > 0.5).float())
                for _ in range(2)]                      # DataLoader(valid_dataset, batch_size=2), CPU batches
'''
CELL = '''
valid_epoch = ValidEpoch(model, loss=loss, metrics=metrics, device=DEVICE, verbose=True)
valid_logs = valid_epoch.run(valid_loader)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
