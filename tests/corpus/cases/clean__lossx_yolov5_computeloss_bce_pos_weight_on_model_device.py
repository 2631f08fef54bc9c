"""YOLOv5 `ComputeLoss`: BCE `pos_weight` tensors and loss accumulators created on the model's device.

Source: https://github.com/ultralytics/yolov5/blob/master/utils/loss.py
`ComputeLoss.__init__` reads `device = next(model.parameters()).device` after the model has been
moved, and builds `nn.BCEWithLogitsLoss(pos_weight=torch.tensor([h['cls_pw']], device=device))`
(same for `obj_pw`); `__call__` creates `lcls/lbox/lobj` and the objectness target `tobj` with
`device=self.device`. Hyper-parameters are plain Python floats in `model.hyp`. Look-alike: tensors
made inside a loss object from Python numbers, all on the model's GPU; it runs.
Stand-ins: a one-level `Detect`-like head, and `build_targets` for a background-only batch (no
labels, so only the objectness term is computed, as in YOLOv5 when `n == 0`).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def smooth_BCE(eps=0.1):
    return 1.0 - 0.5 * eps, 0.5 * eps

class Detect(nn.Module):
    def __init__(self, nc=3, na=3, ch=16):
        super().__init__()
        self.nc, self.na, self.nl, self.no = nc, na, 1, nc + 5
        self.register_buffer("stride", torch.tensor([16.0]))
        self.register_buffer("anchors", torch.tensor([[[1.25, 1.625], [2.0, 3.75], [4.125, 2.875]]]))
        self.m = nn.Conv2d(ch, self.no * na, 1)

    def forward(self, x):
        bs, _, ny, nx = x.shape
        return [self.m(x).view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous()]

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.SiLU(), Detect())
        self.hyp = {"cls_pw": 1.0, "obj_pw": 1.0, "fl_gamma": 0.0, "label_smoothing": 0.0,
                    "box": 0.05, "cls": 0.5, "obj": 1.0}

    def forward(self, x):
        return self.model(x)

class ComputeLoss:
    sort_obj_iou = False

    def __init__(self, model, autobalance=False):
        device = next(model.parameters()).device  # get model device
        h = model.hyp  # hyperparameters
        BCEcls = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([h["cls_pw"]], device=device))
        BCEobj = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([h["obj_pw"]], device=device))
        self.cp, self.cn = smooth_BCE(eps=h.get("label_smoothing", 0.0))
        m = model.model[-1]  # Detect() module
        self.balance = {3: [4.0, 1.0, 0.4]}.get(m.nl, [4.0, 1.0, 0.25, 0.06, 0.02])
        self.BCEcls, self.BCEobj, self.gr, self.hyp, self.autobalance = BCEcls, BCEobj, 1.0, h, autobalance
        self.na, self.nc, self.nl, self.anchors = m.na, m.nc, m.nl, m.anchors
        self.device = device

    def build_targets(self, p, targets):
        # background-only batch: no target boxes in any layer
        return [], [], [(None, None, None, None)] * self.nl, []

    def __call__(self, p, targets):
        lcls = torch.zeros(1, device=self.device)  # class loss
        lbox = torch.zeros(1, device=self.device)  # box loss
        lobj = torch.zeros(1, device=self.device)  # object loss
        tcls, tbox, indices, anchors = self.build_targets(p, targets)
        for i, pi in enumerate(p):
            tobj = torch.zeros(pi.shape[:4], dtype=pi.dtype, device=self.device)  # target obj
            obji = self.BCEobj(pi.select(-1, 4), tobj)
            lobj += obji * self.balance[i]
        lbox *= self.hyp["box"]
        lobj *= self.hyp["obj"]
        lcls *= self.hyp["cls"]
        bs = tobj.shape[0]
        return (lbox + lobj + lcls) * bs, torch.cat((lbox, lobj, lcls)).detach()

device = torch.device("cuda:0")
model = Model().to(device)
compute_loss = ComputeLoss(model)
imgs = torch.randn(2, 3, 64, 64, device=device)
targets = torch.zeros(0, 6, device=device)   # image, class, x, y, w, h
'''
CELL = '''
pred = model(imgs)
loss, loss_items = compute_loss(pred, targets.to(device))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
