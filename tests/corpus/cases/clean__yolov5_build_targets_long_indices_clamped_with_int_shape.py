"""Look-alike: YOLOv5 `build_targets` after the fix: int64 grid indices clamped in place with Python-int bounds.

Source: https://github.com/ultralytics/yolov5/pull/8067
Newer PyTorch made `gj.clamp_(0, gain[3] - 1)` fail ("result type Float can't be cast to the
desired output type long int"): the bound was a 0-dim float tensor. The PR takes the bounds from
`shape = p[i].shape` (Python ints), so `gj.clamp_(0, shape[2] - 1)` keeps int64 in place, while the
float `gain`, `targets` and offsets around it stay float and `gxy - gij` promotes as it should.
`build_targets` is reduced to one detection layer with the repo's offset logic. Run on the CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch

def build_targets(p, targets, anchors_all, anchor_t=4.0):
    na, nt = anchors_all.shape[1], targets.shape[0]
    tcls, tbox, indices, anch = [], [], [], []
    gain = torch.ones(7, device=targets.device)
    ai = torch.arange(na, device=targets.device).float().view(na, 1).repeat(1, nt)
    targets = torch.cat((targets.repeat(na, 1, 1), ai[..., None]), 2)
    g = 0.5
    off = torch.tensor([[0, 0], [1, 0], [0, 1], [-1, 0], [0, -1]], device=targets.device).float() * g
    for i in range(len(p)):
        anchors, shape = anchors_all[i], p[i].shape
        gain[2:6] = torch.tensor(shape)[[3, 2, 3, 2]]
        t = targets * gain
        if nt:
            r = t[..., 4:6] / anchors[:, None]
            j = torch.max(r, 1 / r).max(2)[0] < anchor_t
            t = t[j]
            gxy = t[:, 2:4]
            gxi = gain[[2, 3]] - gxy
            j, k = ((gxy % 1 < g) & (gxy > 1)).T
            l, m = ((gxi % 1 < g) & (gxi > 1)).T
            j = torch.stack((torch.ones_like(j), j, k, l, m))
            t = t.repeat((5, 1, 1))[j]
            offsets = (torch.zeros_like(gxy)[None] + off[:, None])[j]
        else:
            t = targets[0]
            offsets = 0
        bc, gxy, gwh, a = t.chunk(4, 1)
        a, (b, c) = a.long().view(-1), bc.long().T
        gij = (gxy - offsets).long()
        gi, gj = gij.T
        indices.append((b, a, gj.clamp_(0, shape[2] - 1), gi.clamp_(0, shape[3] - 1)))
        tbox.append(torch.cat((gxy - gij, gwh), 1))
        anch.append(anchors[a])
        tcls.append(c)
    return tcls, tbox, indices, anch

p = [torch.randn(2, 3, 8, 8, 85)]                       # one detection layer: (bs, na, ny, nx, no)
anchors_all = torch.tensor([[[1.25, 1.625], [2.0, 3.75], [4.125, 2.875]]])
targets = torch.tensor([[0, 1, 0.50, 0.50, 0.20, 0.30],   # image, class, x, y, w, h (normalized)
                        [1, 3, 0.95, 0.10, 0.40, 0.25]])
'''
CELL = '''
tcls, tbox, indices, anch = build_targets(p, targets, anchors_all)
b, a, gj, gi = indices[0]
ps = p[0][b, a, gj, gi]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
