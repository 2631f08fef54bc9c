"""YOLOv8 TorchScript exported on the CPU, loaded and moved with `net.to(cuda)`: the Detect head's anchors are a CPU constant.

Source: https://github.com/ultralytics/ultralytics/issues/8801
The user exported `yolov8s.pt` with `yolo export model=yolov8s.pt imgsz=640 format=torchscript`
(on the CPU), then `net = torch.jit.load(...)`, `net.to(device)` with `device = cuda:0`, and fed a
CUDA image: the TorchScript interpreter failed at `x1y1 = torch.sub(anchor_points, lt)` with
`anchor_points = torch.unsqueeze(CONSTANTS.c0, 0)`, on the CPU. The anchors computed during the
export dry run were baked in as a tensor constant, which `net.to()` does not move. The user's
workaround: rerun the export with `device=cuda`. Stand-ins: the exporter as a function that builds
the traced module with the anchors of its dry run held as a plain constant attribute, a small
conv backbone and the box-decoding half of `Detect`.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

def make_anchors(h, w, stride, device, grid_cell_offset=0.5):
    sx = torch.arange(end=w, device=device, dtype=torch.float32) + grid_cell_offset
    sy = torch.arange(end=h, device=device, dtype=torch.float32) + grid_cell_offset
    sy, sx = torch.meshgrid(sy, sx, indexing="ij")
    return torch.stack((sx, sy), -1).view(-1, 2).t(), stride

class DetectionModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.SiLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.SiLU())
        self.box = nn.Conv2d(32, 4, 1)
        self.cls = nn.Conv2d(32, 80, 1)

class TracedDetectionModel(nn.Module):   # the exported graph, as torch.jit.load returns it
    def __init__(self, model, anchors, stride):
        super().__init__()
        self.model = model
        self.c0 = anchors                  # CONSTANTS.c0: a tensor constant, not a buffer
        self.stride = stride

    def forward(self, x):
        feats = self.model.backbone(x)
        distance = self.model.box(feats).flatten(2)
        cls = self.model.cls(feats).flatten(2)
        anchor_points = torch.unsqueeze(self.c0, 0)
        lt, rb = torch.chunk(distance, 2, 1)
        x1y1 = torch.sub(anchor_points, lt)
        x2y2 = torch.add(anchor_points, rb)
        return torch.cat(((x1y1 + x2y2) / 2 * self.stride, cls.sigmoid()), 1)

def export_torchscript(model, imgsz=64, device="cpu"):   # yolo export format=torchscript device=...
    model = model.to(device)
    h = w = imgsz // 4
    anchors, stride = make_anchors(h, w, 4.0, device)    # computed in the export dry run
    return TracedDetectionModel(model, anchors, stride)

yolo = DetectionModel()
net = export_torchscript(yolo, imgsz=64)                 # exported on the CPU
device = torch.device("cuda:0")
net.to(device)
net.eval()
tensor = torch.rand(1, 3, 64, 64).to(device)
'''
CELL = '''
output = net.forward(tensor)
print("output.shape:", output.shape)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["net"]
FIX = "namespace"
REFERENCE_FIX = '''
net = export_torchscript(yolo, imgsz=64, device=device)  # rerun the export with device=cuda
net.eval()
'''
REFERENCE_EDIT = None
CLEAN = False
