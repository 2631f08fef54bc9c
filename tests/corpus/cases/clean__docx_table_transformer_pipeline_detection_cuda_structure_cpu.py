"""Look-alike: the Table Transformer extraction pipeline keeps its detection model on CUDA and its structure model on the CPU, each fed on its own device.

Source: https://github.com/microsoft/table-transformer/blob/main/src/inference.py
`TableExtractionPipeline(det_device=..., str_device=...)` loads each model with
`map_location=torch.device(det_device)` / `str_device` and `.to(...)` it; `detect` runs
`self.det_model([img_tensor.to(self.det_device)])` and `recognize` runs
`self.str_model([img_tensor.to(self.str_device)])`, so a GPU detector next to a CPU structure model
(`--detection_device cuda --structure_device cpu`) is a supported split. Nothing to report.
Stand-in: the DETR models reduced to a conv backbone and query heads taking the list of images,
torch-only transforms on numpy pages, the crop step reduced to a fixed crop, and the
`outputs_to_objects` post-processing left out (it copies the outputs to the CPU).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

class DETR(nn.Module):
    def __init__(self, num_classes, num_queries=10, d=16):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, d, 7, stride=4, padding=3), nn.BatchNorm2d(d), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1))
        self.query_embed = nn.Embedding(num_queries, d)
        self.class_embed = nn.Linear(d, num_classes + 1)
        self.bbox_embed = nn.Linear(d, 4)
    def forward(self, samples):
        x = torch.stack(samples)                       # NestedTensor from the list of images
        memory = self.backbone(x).flatten(1)[:, None]
        hs = self.query_embed.weight[None] + memory
        return {"pred_logits": self.class_embed(hs), "pred_boxes": self.bbox_embed(hs).sigmoid()}

def make_transform(max_size):
    mean = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
    std = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)
    def transform(img):
        x = torch.from_numpy(img).permute(2, 0, 1).float() / 255
        scale = max_size / max(x.shape[1:])
        x = F.interpolate(x[None], scale_factor=scale, mode="bilinear", align_corners=False)[0]
        return (x - mean) / std
    return transform

detection_transform = make_transform(800 // 8)
structure_transform = make_transform(1000 // 8)

class TableExtractionPipeline(object):
    def __init__(self, det_device=None, str_device=None):
        self.det_device = det_device
        self.str_device = str_device
        self.det_model = DETR(num_classes=2)          # build_model(det_args) + load_state_dict(map_location=det_device)
        self.det_model.to(det_device)
        self.det_model.eval()
        self.str_model = DETR(num_classes=6)
        self.str_model.to(str_device)
        self.str_model.eval()

    def detect(self, img, tokens=None):
        img_tensor = detection_transform(img)
        outputs = self.det_model([img_tensor.to(self.det_device)])
        return outputs                                # outputs_to_objects(outputs, img.size, ...)

    def recognize(self, img, tokens=None):
        img_tensor = structure_transform(img)
        outputs = self.str_model([img_tensor.to(self.str_device)])
        return outputs

    def extract(self, img, tokens=None):
        detect_out = self.detect(img, tokens=tokens)
        cropped_tables = [img[10:90, 5:70]]           # objects_to_crops(img, tokens, objects, ...)
        return detect_out, [self.recognize(table, tokens=tokens) for table in cropped_tables]

pipe = TableExtractionPipeline(det_device="cuda:0", str_device="cpu")   # --detection_device cuda --structure_device cpu
img = np.random.randint(0, 255, (110, 85, 3), dtype=np.uint8)           # Image.open(img_path).convert("RGB")
'''
CELL = '''
with torch.no_grad():
    detected, extracted_tables = pipe.extract(img, tokens=[])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
