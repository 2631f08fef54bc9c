"""Look-alike: YOLOv5's loss under AMP builds `tobj` in the predictions' half dtype and casts the IoU into it.

Source: https://github.com/ultralytics/yolov5/pull/7088
"Update loss for FP16 `tobj`": `ComputeLoss.__call__` creates the objectness target as
`torch.zeros(pi.shape[:4], dtype=pi.dtype, device=self.device)`, so under `torch.cuda.amp.autocast` it
is half like the predictions, and writes `iou.detach().clamp(0).type(tobj.dtype)` into it; the float32
loss accumulators (`lbox`, `lobj`, `lcls`) take the autocast losses in place. Reduced-precision
predictions next to float32 accumulators and targets built in the predictions' dtype are deliberate and
correct: no finding expected. Stand-in: a one-level Detect model, `build_targets` by fixed grid
assignments, CPU autocast with bfloat16 in place of CUDA fp16.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

def bbox_iou(box1, box2, eps=1e-7):
    (x1, y1, w1, h1), (x2, y2, w2, h2) = box1.chunk(4, -1), box2.chunk(4, -1)
    b1_x1, b1_x2, b1_y1, b1_y2 = x1 - w1 / 2, x1 + w1 / 2, y1 - h1 / 2, y1 + h1 / 2
    b2_x1, b2_x2, b2_y1, b2_y2 = x2 - w2 / 2, x2 + w2 / 2, y2 - h2 / 2, y2 + h2 / 2
    inter = (torch.min(b1_x2, b2_x2) - torch.max(b1_x1, b2_x1)).clamp(0) * \\
            (torch.min(b1_y2, b2_y2) - torch.max(b1_y1, b2_y1)).clamp(0)
    union = w1 * h1 + w2 * h2 - inter + eps
    return inter / union

class Model(nn.Module):
    def __init__(self, nc=3, na=3):
        super().__init__()
        self.nc, self.na, self.no = nc, na, nc + 5
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.SiLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.SiLU())
        self.m = nn.Conv2d(32, na * self.no, 1)
        self.register_buffer("anchors", torch.tensor([[1.25, 1.625], [2.0, 3.75], [4.125, 2.875]]))

    def forward(self, x):
        x = self.m(self.backbone(x))
        bs, _, ny, nx = x.shape
        return [x.view(bs, self.na, self.no, ny, nx).permute(0, 1, 3, 4, 2).contiguous()]

class ComputeLoss:
    def __init__(self, model):
        self.device = next(model.parameters()).device
        self.BCEcls = nn.BCEWithLogitsLoss()
        self.BCEobj = nn.BCEWithLogitsLoss()
        self.nc, self.anchors, self.balance = model.nc, model.anchors, [1.0]
        self.cp, self.cn = 1.0, 0.0

    def build_targets(self, p, targets):
        b = targets[:, 0].long()
        c = targets[:, 1].long()
        gxy = targets[:, 2:4] * p[0].shape[2]
        gwh = targets[:, 4:6] * p[0].shape[2]
        gij = gxy.long()
        gi, gj = gij.T
        a = torch.zeros_like(b)
        return [c], [torch.cat((gxy - gij, gwh), 1)], [(b, a, gj, gi)], [self.anchors[a]]

    def __call__(self, p, targets):
        lcls = torch.zeros(1, device=self.device)
        lbox = torch.zeros(1, device=self.device)
        lobj = torch.zeros(1, device=self.device)
        tcls, tbox, indices, anchors = self.build_targets(p, targets)
        for i, pi in enumerate(p):
            b, a, gj, gi = indices[i]
            tobj = torch.zeros(pi.shape[:4], dtype=pi.dtype, device=self.device)
            n = b.shape[0]
            if n:
                pxy, pwh, _, pcls = pi[b, a, gj, gi].split((2, 2, 1, self.nc), 1)
                pxy = pxy.sigmoid() * 2 - 0.5
                pwh = (pwh.sigmoid() * 2) ** 2 * anchors[i]
                pbox = torch.cat((pxy, pwh), 1)
                iou = bbox_iou(pbox, tbox[i]).squeeze()
                lbox += (1.0 - iou).mean()
                iou = iou.detach().clamp(0).type(tobj.dtype)
                tobj[b, a, gj, gi] = iou
                t = torch.full_like(pcls, self.cn, device=self.device)
                t[range(n), tcls[i]] = self.cp
                lcls += self.BCEcls(pcls, t)
            lobj += self.BCEobj(pi[..., 4], tobj) * self.balance[i]
        bs = p[0].shape[0]
        return (lbox + lobj + lcls) * bs, torch.cat((lbox, lobj, lcls)).detach()

model = Model()
compute_loss = ComputeLoss(model)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.937)
imgs = torch.rand(2, 3, 32, 32)
targets = torch.tensor([[0, 1, 0.40, 0.55, 0.20, 0.30], [1, 2, 0.70, 0.25, 0.10, 0.15]])   # image, class, xywh
'''
CELL = '''
with torch.autocast("cpu", dtype=torch.bfloat16):           # torch.cuda.amp.autocast(amp)
    pred = model(imgs)
    loss, loss_items = compute_loss(pred, targets)
loss.backward()
optimizer.step()
optimizer.zero_grad()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
