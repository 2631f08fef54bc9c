"""Lightning validation_step builds `F1(num_classes=...)` on every call: the fresh metric lives on the CPU.

Source: https://github.com/Lightning-AI/torchmetrics/issues/340
In an ImageNet classifier trained with `Trainer(gpus=1)`, `validation_step` computes
`f1 = F1(num_classes=self.args.num_classes)(preds, y)`: the metric object is created inside the
step, so Lightning never moves it, and its CPU states meet the CUDA `preds`/`y` ("Expected all tensors to
be on the same device ... cuda:0 and cpu"). Maintainers' answer (working as intended): create the metric
in `__init__` as a module attribute, or move it to the data's device.
Stand-in: a minimal LightningModule (the trainer already moved it to cuda:0) and an F1 metric with
buffer states; the validation batch is on cuda:0 as Lightning delivers it.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn
import torch.nn.functional as F

class F1(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.num_classes = num_classes
        self.register_buffer("tp", torch.zeros(num_classes))
        self.register_buffer("fp", torch.zeros(num_classes))
        self.register_buffer("fn", torch.zeros(num_classes))

    def forward(self, preds, target):
        p = F.one_hot(preds, self.num_classes).float()
        t = F.one_hot(target, self.num_classes).float()
        self.tp += (p * t).sum(0)
        self.fp += (p * (1 - t)).sum(0)
        self.fn += ((1 - p) * t).sum(0)
        return (2 * self.tp / (2 * self.tp + self.fp + self.fn + 1e-8)).mean()

class ImageNetClassify(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.args = args
        self.backbone = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 64), nn.ReLU())
        self.head = nn.Linear(64, args.num_classes)
        self.loss_fn = nn.CrossEntropyLoss()
        self.logged = {}

    def forward(self, x):
        return self.head(self.backbone(x))

    def log(self, name, value, prog_bar=False):
        self.logged[name] = value

    def validation_step(self, batch, batch_idx):
        x, y = batch
        logits = self.forward(x)
        loss = self.loss_fn(logits, y)
        preds = torch.argmax(logits, dim=1)
        f1 = F1(num_classes=self.args.num_classes)(preds, y)
        self.log('val_loss', loss, prog_bar=True)
        self.log('val_f1', f1, prog_bar=True)
        return loss

args = SimpleNamespace(num_classes=5)
model = ImageNetClassify(args).to("cuda:0")     # what Trainer(gpus=1) does
batch = (torch.randn(4, 3, 8, 8, device="cuda:0"), torch.randint(0, 5, (4,), device="cuda:0"))
'''
CELL = '''
with torch.no_grad():
    model.eval()
    val_loss = model.validation_step(batch, 0)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("f1 = F1(num_classes=self.args.num_classes)(preds, y)",
                  "f1 = F1(num_classes=self.args.num_classes).to(preds.device)(preds, y)")
CLEAN = False
