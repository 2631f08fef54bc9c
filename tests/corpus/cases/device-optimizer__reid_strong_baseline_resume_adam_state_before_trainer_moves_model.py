"""reid-strong-baseline resumed with PRETRAIN_CHOICE 'self': Adam's state is loaded while the model is on the CPU, the trainer moves only the model to cuda.

Source: https://github.com/michuanhaohao/reid-strong-baseline/issues/114
"resume error": resuming person re-ID training from a saved model/optimizer pair crashed in the
first `optimizer.step()` with a cuda/cpu device mismatch. `train.py` builds the model and
optimizer, loads `model_XX.pth` and `optimizer_XX.pth` (casting the state to the CPU parameters),
and only `create_supervised_trainer` later does `model.to(device)`. The reporter's fix: after
`model.to(device)`, move every tensor in `optimizer.state` to the GPU. Stand-in: a small ReID
baseline (backbone, neck, classifier; batch norms replaced, their running-stat updates are not
simulated on fake cuda), the ignite update closure reduced to a function, and the
checkpoint written by an earlier run; gradients are set by hand (no backward in fake cuda).
"""

SIM = "fake_cuda"
FAMILY = "device-optimizer"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class Baseline(nn.Module):
    in_planes = 64

    def __init__(self, num_classes=751):
        super().__init__()
        self.base = nn.Sequential(nn.Conv2d(3, 64, 3, stride=2, padding=1), nn.ReLU())
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.bottleneck = nn.LayerNorm(self.in_planes)  # BNNeck (BatchNorm1d) in the repo
        self.bottleneck.bias.requires_grad_(False)  # no shift
        self.classifier = nn.Linear(self.in_planes, num_classes, bias=False)

    def forward(self, x):
        global_feat = self.gap(self.base(x)).view(x.shape[0], -1)
        feat = self.bottleneck(global_feat)
        cls_score = self.classifier(feat)
        return cls_score, global_feat

def make_optimizer(model, base_lr=0.00035, weight_decay=0.0005):
    params = [{"params": [value], "lr": base_lr, "weight_decay": weight_decay}
              for key, value in model.named_parameters() if value.requires_grad]
    return torch.optim.Adam(params)

# model_40.pth / optimizer_40.pth saved by the previous run
_model = Baseline()
_opt = make_optimizer(_model)
for _p in _model.parameters():
    if _p.requires_grad:
        _p.grad = torch.ones_like(_p)
_opt.step()
saved_model, saved_optimizer = _model.state_dict(), _opt.state_dict()

def create_supervised_trainer(model, optimizer, loss_fn, device=None):
    if device:
        model.to(device)

    def _update(batch):
        model.train()
        optimizer.zero_grad()
        img, target = batch
        img = img.to(device)
        target = target.to(device)
        score, feat = model(img)
        loss = loss_fn(score, feat, target)
        for p in model.parameters():       # stand-in for loss.backward()
            if p.requires_grad:
                p.grad = torch.ones_like(p)
        optimizer.step()
        acc = (score.max(1)[1] == target).float().mean()
        return loss, acc
    return _update

def loss_func(score, feat, target):
    return F.cross_entropy(score, target)

device = "cuda:0"
model = Baseline(num_classes=751)
optimizer = make_optimizer(model)
start_epoch = 40
model.load_state_dict(saved_model)
optimizer.load_state_dict(saved_optimizer)
batch = (torch.randn(8, 3, 64, 32), torch.randint(0, 751, (8,)))
'''
CELL = '''
update = create_supervised_trainer(model, optimizer, loss_func, device=device)
loss, acc = update(batch)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device")
CULPRITS = ["optimizer"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to(device)
for state in optimizer.state.values():
    for k, v in state.items():
        if isinstance(v, torch.Tensor) and k != "step":
            state[k] = v.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
