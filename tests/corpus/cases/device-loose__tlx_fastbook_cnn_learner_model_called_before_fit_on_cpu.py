"""fastbook chapter 6 (multi-label): calling `learn.model(x)` on a GPU batch before any `fit`, the `cnn_learner` model is still on the CPU.

Source: https://github.com/fastai/fastbook/pull/220
"CUDA problem solved in Notebook#06": in the multi-label chapter, after `learn =
cnn_learner(dls, resnet18)` the cell `x,y = dls.train.one_batch(); activs = learn.model(x)` raised
"Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same": the
DataLoaders put batches on the GPU, while the Learner only moves its model to `dls.device` when
fitting starts. The fix adds `learn.model.to(device)` with `device = torch.device("cuda:0")`.
Stand-in: fastai's DataLoaders/Learner/cnn_learner reduced to their device behaviour (batches on the
loaders' device, `create_cnn_model` = pretrained body + new head, model moved only in `fit`), a small
ResNet body; the model is put in eval mode because fake cuda cannot run training-mode batch_norm.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class TfmdDL:
    def __init__(self, items, bs=4, device=torch.device("cuda:0")):
        self.items, self.bs, self.device = items, bs, device

    def one_batch(self):
        xs, ys = zip(*self.items[:self.bs])
        return torch.stack(xs).to(self.device), torch.stack(ys).to(self.device)

class DataLoaders:
    def __init__(self, train, valid):
        self.train, self.valid = train, valid
        self.device = train.device
        self.c = 20

class AdaptiveConcatPool2d(nn.Module):
    def __init__(self, size=1):
        super().__init__()
        self.ap, self.mp = nn.AdaptiveAvgPool2d(size), nn.AdaptiveMaxPool2d(size)

    def forward(self, x):
        return torch.cat([self.mp(x), self.ap(x)], 1)

def resnet18(pretrained=True):                   # torchvision resnet18, reduced
    return nn.Sequential(nn.Conv2d(3, 16, 7, 2, 3, bias=False), nn.BatchNorm2d(16), nn.ReLU(inplace=True),
                         nn.MaxPool2d(3, 2, 1), nn.Sequential(nn.Conv2d(16, 32, 3, 1, 1, bias=False), nn.BatchNorm2d(32)),
                         nn.AdaptiveAvgPool2d(1), nn.Linear(32, 1000))

def create_head(nf, n_out, lin_ftrs=None, ps=0.5):
    return nn.Sequential(AdaptiveConcatPool2d(), nn.Flatten(), nn.BatchNorm1d(nf), nn.Dropout(ps / 2),
                         nn.Linear(nf, 512, bias=False), nn.ReLU(inplace=True), nn.BatchNorm1d(512),
                         nn.Dropout(ps), nn.Linear(512, n_out, bias=False))

def create_cnn_model(arch, n_out, pretrained=True):
    body = nn.Sequential(*list(arch(pretrained=pretrained).children())[:-2])
    return nn.Sequential(body, create_head(32 * 2, n_out))

class Learner:
    def __init__(self, dls, model, loss_func=None, metrics=None):
        self.dls, self.model, self.loss_func, self.metrics = dls, model, loss_func, metrics

    def fit(self, n_epoch, lr=1e-3):
        self.model.to(self.dls.device)           # TrainEvalCallback.before_fit
        # ... training loop ...

def cnn_learner(dls, arch, loss_func=None, metrics=None, pretrained=True):
    model = create_cnn_model(arch, dls.c, pretrained=pretrained)
    return Learner(dls, model, loss_func=loss_func, metrics=metrics)

items = [(torch.rand(3, 64, 64), (torch.rand(20) > 0.9).float()) for _ in range(8)]
dls = DataLoaders(TfmdDL(items), TfmdDL(items))
learn = cnn_learner(dls, resnet18)
learn.model.eval()       # simulation only: fake cuda cannot run training-mode batch_norm
'''
CELL = '''
x,y = dls.train.one_batch()
activs = learn.model(x)
activs.shape
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["learn.model"]
FIX = "namespace"
REFERENCE_FIX = '''
device = torch.device("cuda:0")
learn.model.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
