"""Look-alike: DeepForest `_predict_image_` builds the image tensor on the CPU and moves it to the detector's device.

Source: https://github.com/weecology/DeepForest/pull/1391
Fixing #1390 ("predict_image fails on CUDA: input tensor not moved to model device"), the PR keeps
`image = torch.tensor(image).permute(2, 0, 1) / 255` on the CPU and then moves it to
`next(model.parameters()).device` before `model(image.unsqueeze(0))`. A CPU numpy tile and a CPU
tensor sit next to a cuda detector in the namespace, but the forward pass sees only cuda tensors.
The RetinaNet detector is a small stand-in returning boxes/scores/labels dicts.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class RetinaNetStandIn(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU())
        self.box_head = nn.Conv2d(8, 4, 1)
        self.cls_head = nn.Conv2d(8, 1, 1)

    def forward(self, images):
        f = self.backbone(images)
        boxes = self.box_head(f).flatten(2).transpose(1, 2)
        scores = torch.sigmoid(self.cls_head(f)).flatten(1)
        return [{"boxes": boxes.squeeze(0), "scores": scores.squeeze(0),
                 "labels": torch.zeros_like(scores.squeeze(0), dtype=torch.long)}]

def _predict_image_(model, image, path, nms_thresh):
    image = torch.tensor(image).permute(2, 0, 1)
    image = image / 255
    try:
        device = next(model.parameters()).device
        image = image.to(device)
    except StopIteration:
        pass
    with torch.no_grad():
        prediction = model(image.unsqueeze(0))
    return prediction[0]

model = RetinaNetStandIn().to("cuda:0")                    # m.model.to("cuda")
model.eval()
tile = np.random.default_rng(0).integers(0, 256, size=(64, 64, 3)).astype(np.float32)   # RGB tile read from disk
'''
CELL = '''
result = _predict_image_(model, tile, path="some_rgb.tif", nms_thresh=0.05)
boxes, scores = result["boxes"], result["scores"]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
