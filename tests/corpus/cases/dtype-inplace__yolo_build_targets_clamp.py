"""YOLO build_targets clamps int64 grid indices in place with a float tensor bound.

Source: https://github.com/vicFigure/EAutoDet/issues/5
`indices.append((b, a, gj.clamp_(0, gain[3] - 1), gi.clamp_(0, gain[2] - 1)))` raised "result type
Float can't be cast to the desired output type long int" on newer PyTorch: `gj` is int64, `gain`
a float tensor, and an in-place clamp cannot write the promoted float result. YOLOv5 fixed it by
clamping with Python ints (ultralytics/yolov5#8067).
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch

def build_targets(targets, grid_w, grid_h):
    gain = torch.ones(6)
    gain[2:6] = torch.tensor([grid_w, grid_h, grid_w, grid_h], dtype=torch.float32)
    t = targets * gain
    b, c = t[:, :2].long().T
    gxy = t[:, 2:4]
    gij = gxy.long()
    gi, gj = gij.T
    return b, c, gj.clamp_(0, gain[3] - 1), gi.clamp_(0, gain[2] - 1)

targets = torch.tensor([[0, 1, 0.50, 0.50, 0.2, 0.3],
                        [0, 2, 0.99, 0.10, 0.1, 0.1]])
'''
CELL = '''
b, c, gj, gi = build_targets(targets, grid_w=20, grid_h=20)
'''
EXPECT_ERROR = "result type Float can't be cast to the desired output type"
CULPRITS = ["build_targets"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "gj.clamp_(0, gain[3] - 1), gi.clamp_(0, gain[2] - 1)",
    "gj.clamp_(0, int(gain[3]) - 1), gi.clamp_(0, int(gain[2]) - 1)",
)
CLEAN = False
