"""Yolo-FastestV2 training on a custom dataset: `build_target` clamps int64 grid indices in place with a float bound.

Source: https://github.com/dog-qiuqiu/Yolo-FastestV2/issues/83
`utils.loss.compute_loss` -> `build_target(preds, targets, cfg, device)` failed at
`indices.append((b, a, gj.clamp_(0, gain[3] - 1), gi.clamp_(0, gain[2] - 1)))` with "result type
Float can't be cast to the desired output type long int": `gj`/`gi` come from `.long()`, `gain` is a
float tensor, and on current PyTorch an in-place clamp cannot write the float result into int64.
The commenters' fix casts the bound to an integer. The detector is a stand-in producing the six
(reg, obj, cls) x 2 scale outputs; `build_target` is the repo's. Run on the CPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import numpy as np
import torch
from torch import nn

layer_index = [0, 0, 0, 1, 1, 1]

def build_target(preds, targets, cfg, device):
    tcls, tbox, indices, anch = [], [], [], []
    anchor_num, label_num = cfg["anchor_num"], targets.shape[0]
    anchors = np.array(cfg["anchors"])
    anchors = torch.from_numpy(anchors.reshape(len(preds) // 3, anchor_num, 2)).to(device)
    gain = torch.ones(7, device = device)
    at = torch.arange(anchor_num, device = device).float().view(anchor_num, 1).repeat(1, label_num)
    targets = torch.cat((targets.repeat(anchor_num, 1, 1), at[:, :, None]), 2)
    g = 0.5
    off = torch.tensor([[0, 0], [1, 0], [0, 1], [-1, 0], [0, -1]], device = device).float() * g
    for i, pred in enumerate(preds):
        if i % 3 == 0:
            _, _, h, w = pred.shape
            stride = cfg["width"]/w
            anchors_cfg = anchors[layer_index[i]]/stride
            gain[2:6] = torch.tensor(pred.shape)[[3, 2, 3, 2]]
            gt = targets * gain
            if label_num:
                r = gt[:, :, 4:6] / anchors_cfg[:, None]
                j = torch.max(r, 1. / r).max(2)[0] < 2
                t = gt[j]
                gxy = t[:, 2:4]
                gxi = gain[[2, 3]] - gxy
                j, k = ((gxy % 1. < g) & (gxy > 1.)).T
                l, m = ((gxi % 1. < g) & (gxi > 1.)).T
                j = torch.stack((torch.ones_like(j), j, k, l, m))
                t = t.repeat((5, 1, 1))[j]
                offsets = (torch.zeros_like(gxy)[None] + off[:, None])[j]
            else:
                t = targets[0]
                offsets = 0
            b, c = t[:, :2].long().T
            gxy = t[:, 2:4]
            gwh = t[:, 4:6]
            gij = (gxy - offsets).long()
            gi, gj = gij.T
            a = t[:, 6].long()
            indices.append((b, a, gj.clamp_(0, gain[3] - 1), gi.clamp_(0, gain[2] - 1)))
            tbox.append(torch.cat((gxy - gij, gwh), 1))
            anch.append(anchors_cfg[a])
            tcls.append(c)
    return tcls, tbox, indices, anch

class Detector(nn.Module):
    def __init__(self, classes=2, anchor_num=3):
        super().__init__()
        self.backbone = nn.Conv2d(3, 16, 3, stride=16, padding=1)
        self.down = nn.Conv2d(16, 16, 3, stride=2, padding=1)
        self.reg = nn.Conv2d(16, 4 * anchor_num, 1)
        self.obj = nn.Conv2d(16, anchor_num, 1)
        self.cls = nn.Conv2d(16, classes, 1)

    def forward(self, x):
        p2 = self.backbone(x)
        p3 = self.down(p2)
        return [self.reg(p2), self.obj(p2), self.cls(p2), self.reg(p3), self.obj(p3), self.cls(p3)]

cfg = {"anchor_num": 3, "width": 352, "height": 352,
       "anchors": [12.64, 19.39, 37.88, 51.48, 55.71, 138.31, 126.91, 78.23, 131.57, 214.55, 279.92, 258.87]}
device = torch.device("cpu")
model = Detector().to(device)
imgs = torch.rand(2, 3, 352, 352)
targets = torch.tensor([[0, 1, 0.45, 0.50, 0.20, 0.30],      # image, class, x, y, w, h (normalized)
                        [1, 0, 0.90, 0.15, 0.35, 0.25]])
'''
CELL = '''
preds = model(imgs)
tcls, tbox, indices, anch = build_target(preds, targets, cfg, device)
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type"
CULPRITS = ["gain"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("gj.clamp_(0, gain[3] - 1), gi.clamp_(0, gain[2] - 1)",
                  "gj.clamp_(0, int(gain[3]) - 1), gi.clamp_(0, int(gain[2]) - 1)")
CLEAN = False
