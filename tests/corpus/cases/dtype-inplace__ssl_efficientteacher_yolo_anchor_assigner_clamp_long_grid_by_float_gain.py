"""Efficient Teacher (semi-supervised YOLO detection): `gj.clamp_(0, gain[3] - 1)` in the anchor assigner fails on a recent PyTorch.

Source: https://github.com/AlibabaResearch/efficientteacher/issues/142
"RuntimeError: result type Float can't be cast to the desired output type long int" while training.
The reporter solved it in the YOLO anchor assigner's target building: `gain` is a float tensor, so the
in-place `gj.clamp_(0, gain[3] - 1)` / `gi.clamp_(0, gain[2] - 1)` on the int64 grid indices asks
for a float result in a long tensor; adding `.long()` to `gain[3]` and `gain[2]` makes the bounds
integers (they patched the same line in two places of the file).
Stand-in: `YOLOAnchorAssigner.build_targets` as in the repo, behind a reduced `ComputeLoss` (only the
objectness term of `default_loss`) with a 2-level detect-head layout; CPU only (dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
import torch.nn as nn

class YOLOAnchorAssigner(nn.Module):
    def __init__(self, na=3, nl=3, anchors=[], anchor_t=4.0, stride=[], nc=80):
        super(YOLOAnchorAssigner, self).__init__()
        self.nc = nc
        self.na = na
        self.anchors = anchors
        self.anchor_t = anchor_t
        self.nl = nl
        self.stride = stride

    @torch.no_grad()
    def forward(self, p, targets):
        return self.build_targets(p, targets)

    def build_targets(self, p, targets):
        targets = targets[:, :6]
        na, nt = self.na, targets.shape[0]  # number of anchors, targets
        tcls, tbox, indices, anch = [], [], [], []
        gain = torch.ones(7, device=targets.device)  # normalized to gridspace gain
        ai = torch.arange(na, device=targets.device).float().view(na, 1).repeat(1, nt)
        targets = torch.cat((targets.repeat(na, 1, 1), ai[:, :, None]), 2)  # append anchor indices
        g = 0.5  # bias
        off = torch.tensor([[0, 0], [1, 0], [0, 1], [-1, 0], [0, -1]], device=targets.device).float() * g
        for i in range(self.nl):
            anchors = self.anchors[i]
            gain[2:6] = torch.tensor(p[i].shape)[[3, 2, 3, 2]]  # xyxy gain
            t = targets * gain
            if nt:
                r = t[:, :, 4:6] / anchors[:, None]  # wh ratio
                j = torch.max(r, 1. / r).max(2)[0] < self.anchor_t  # compare
                t = t[j]  # filter
                gxy = t[:, 2:4]  # grid xy
                gxi = gain[[2, 3]] - gxy  # inverse
                j, k = ((gxy % 1. < g) & (gxy > 1.)).T
                l, m = ((gxi % 1. < g) & (gxi > 1.)).T
                j = torch.stack((torch.ones_like(j), j, k, l, m))
                t = t.repeat((5, 1, 1))[j]
                offsets = (torch.zeros_like(gxy)[None] + off[:, None])[j]
            else:
                t = targets[0]
                offsets = 0
            b, c = t[:, :2].long().T  # image, class
            gxy = t[:, 2:4]  # grid xy
            gwh = t[:, 4:6]  # grid wh
            gij = (gxy - offsets).long()
            gi, gj = gij.T  # grid xy indices
            a = t[:, 6].long()  # anchor indices
            indices.append((b, a, gj.clamp_(0, gain[3] - 1), gi.clamp_(0, gain[2] - 1)))  # image, anchor, grid indices
            tbox.append(torch.cat((gxy - gij, gwh), 1))  # box
            anch.append(anchors[a])  # anchors
            tcls.append(c)  # class
        return tcls, tbox, indices, anch

class ComputeLoss:
    def __init__(self, na, nl, nc, anchors, stride, anchor_t=4.0, obj_pw=1.0):
        self.na, self.nl, self.nc, self.anchors = na, nl, nc, anchors
        self.BCEobj = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([obj_pw]))
        self.balance = [4.0, 1.0]
        self.assigner = YOLOAnchorAssigner(self.na, self.nl, self.anchors, anchor_t, stride, self.nc)

    def default_loss(self, p, targets):
        device = targets.device
        lobj = torch.zeros(1, device=device)
        tcls, tbox, indices, anchors = self.assigner(p, targets)  # targets
        for i, pi in enumerate(p):
            b, a, gj, gi = indices[i]  # image, anchor, gridy, gridx
            tobj = torch.zeros_like(pi[..., 0], device=device)  # target obj
            if b.shape[0]:
                tobj[b, a, gj, gi] = 1.0
            lobj += self.BCEobj(pi[..., 4], tobj) * self.balance[i]
        return lobj

    def __call__(self, p, targets):
        return self.default_loss(p, targets)

na, nl, nc = 3, 2, 4
stride = torch.tensor([8., 16.])
anchors = torch.tensor([[[10, 13], [16, 30], [33, 23]],
                        [[30, 61], [62, 45], [59, 119]]], dtype=torch.float32) / stride.view(-1, 1, 1)
compute_loss = ComputeLoss(na, nl, nc, anchors, stride)

bs = 2
p = [torch.randn(bs, na, 64 // int(s), 64 // int(s), 5 + nc, requires_grad=True) for s in stride]
# targets: (image, class, x, y, w, h), normalized
targets = torch.tensor([[0, 1, 0.30, 0.40, 0.20, 0.30],
                        [0, 2, 0.70, 0.60, 0.40, 0.50],
                        [1, 0, 0.52, 0.48, 0.25, 0.20]])
'''
CELL = '''
loss = compute_loss(p, targets)
loss.backward()
'''
EXPECT_ERROR = "can't be cast to the desired output type"
CULPRITS = ["compute_loss.assigner"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "gj.clamp_(0, gain[3] - 1), gi.clamp_(0, gain[2] - 1)",
    "gj.clamp_(0, gain[3].long() - 1), gi.clamp_(0, gain[2].long() - 1)",
)
CLEAN = False
