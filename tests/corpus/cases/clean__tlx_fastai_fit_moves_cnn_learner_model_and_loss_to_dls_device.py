"""Look-alike: fastai `cnn_learner` fine-tuning; the model is built on the CPU and never moved by the user, yet `fit` runs on the GPU batches.

Source: https://github.com/fastai/fastai/blob/master/fastai/callback/core.py
`cnn_learner(dls, resnet34)` creates the pretrained body plus a new head on the CPU, and the user's
notebook never calls `.to(device)` while the DataLoaders yield GPU batches. Calling `learn.model(x)` by
hand in that state is a real bug (fastbook #220), but `learn.fit(...)` is not: the always-on
`TrainEvalCallback.before_fit` does `device = getattr(self.dls, 'device', default_device());
self.model.to(device)` and moves an `nn.Module` loss function as well, before the first batch.
Stand-in: DataLoaders/Learner/cnn_learner reduced to that behaviour (no optimizer step), a small ResNet
body, a BCE-with-logits loss carrying a CPU `pos_weight` buffer (multi-label chapter); GPU simulated
with meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

default_device = lambda: torch.device("meta")       # the GPU, simulated with meta

class TfmdDL:
    def __init__(self, items, bs=4, device=None):
        self.items, self.bs, self.device = items, bs, device or default_device()

    def __iter__(self):
        for i in range(0, len(self.items), self.bs):
            xs, ys = zip(*self.items[i:i + self.bs])
            yield torch.stack(xs).to(self.device), torch.stack(ys).to(self.device)

class DataLoaders:
    def __init__(self, train, valid):
        self.train, self.valid = train, valid
        self.device = train.device
        self.c = 20

class TrainEvalCallback:
    def before_fit(self, learn):
        "Set the iter and epoch counters to 0, put the model and the right device"
        learn.epoch, learn.train_iter, learn.pct_train = 0, 0, 0.
        device = getattr(learn.dls, 'device', default_device())
        learn.model.to(device)
        if isinstance(learn.loss_func, nn.Module): learn.loss_func.to(device)

    def before_train(self, learn): learn.model.train()
    def before_validate(self, learn): learn.model.eval()

class Learner:
    def __init__(self, dls, model, loss_func):
        self.dls, self.model, self.loss_func = dls, model, loss_func
        self.cbs = [TrainEvalCallback()]

    def fit(self, n_epoch):
        for cb in self.cbs: cb.before_fit(self)
        for epoch in range(n_epoch):
            for cb in self.cbs: cb.before_train(self)
            for xb, yb in self.dls.train:
                self.pred = self.model(xb)
                self.loss = self.loss_func(self.pred, yb)
                self.loss.backward()
            for cb in self.cbs: cb.before_validate(self)
            with torch.no_grad():
                for xb, yb in self.dls.valid:
                    self.loss_func(self.model(xb), yb)

def resnet34(pretrained=True):                       # torchvision resnet34, reduced
    return nn.Sequential(nn.Conv2d(3, 16, 7, 2, 3, bias=False), nn.BatchNorm2d(16), nn.ReLU(inplace=True),
                         nn.MaxPool2d(3, 2, 1), nn.Conv2d(16, 32, 3, 1, 1, bias=False), nn.BatchNorm2d(32),
                         nn.AdaptiveAvgPool2d(1), nn.Linear(32, 1000))

def create_head(nf, n_out):
    return nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.BatchNorm1d(nf), nn.Dropout(0.25),
                         nn.Linear(nf, 512, bias=False), nn.ReLU(inplace=True), nn.BatchNorm1d(512),
                         nn.Dropout(0.5), nn.Linear(512, n_out, bias=False))

def cnn_learner(dls, arch, loss_func=None, pretrained=True):
    body = nn.Sequential(*list(arch(pretrained=pretrained).children())[:-2])
    model = nn.Sequential(body, create_head(32, dls.c))
    return Learner(dls, model, loss_func=loss_func)

items = [(torch.rand(3, 64, 64), (torch.rand(20) > 0.9).float()) for _ in range(8)]
dls = DataLoaders(TfmdDL(items), TfmdDL(items[:4]))
loss_func = nn.BCEWithLogitsLoss(pos_weight=torch.full((20,), 2.0))
learn = cnn_learner(dls, resnet34, loss_func=loss_func)
'''
CELL = '''
learn.fit(1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
