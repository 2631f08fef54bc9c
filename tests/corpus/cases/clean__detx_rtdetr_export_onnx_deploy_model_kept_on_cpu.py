"""Look-alike: RT-DETR's ONNX export runs a freshly built deploy model on the CPU while the trained model sits on the GPU.

Source: https://github.com/lyuwenyu/RT-DETR/blob/main/rtdetr_pytorch/tools/export_onnx.py
After training (the solver's model is on cuda:0), `export_onnx.py` builds a new model from the config,
loads the checkpoint with `torch.load(args.resume, map_location='cpu')`, wraps `cfg.model.deploy()` and
`cfg.postprocessor.deploy()` in a small `Model`, and runs it once on CPU dummy inputs
(`data = torch.rand(1, 3, 640, 640)`, `size = torch.tensor([[640, 640]])`) before `torch.onnx.export`.
The export copy and its inputs are all on the CPU on purpose; the GPU model is not involved: no finding
expected. Stand-in: YAMLConfig/RTDETR/RTDETRPostProcessor reduced to a strided-conv backbone, query
embeddings and the class/box heads; the checkpoint is a CPU state dict; `torch.onnx.export` is left out.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

def box_cxcywh_to_xyxy(x):
    cx, cy, w, h = x.unbind(-1)
    return torch.stack([cx - 0.5 * w, cy - 0.5 * h, cx + 0.5 * w, cy + 0.5 * h], dim=-1)

class RTDETR(nn.Module):
    def __init__(self, num_classes=80, num_queries=30, d=32):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, d, 32, 32), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.query_embed = nn.Embedding(num_queries, d)
        self.score_head = nn.Linear(d, num_classes)
        self.bbox_head = nn.Linear(d, 4)

    def forward(self, x, targets=None):
        hs = self.query_embed.weight[None] + self.backbone(x)[:, None]
        return {"pred_logits": self.score_head(hs), "pred_boxes": self.bbox_head(hs).sigmoid()}

    def deploy(self):
        self.eval()
        return self

class RTDETRPostProcessor(nn.Module):
    def __init__(self, num_classes=80, use_focal_loss=True, num_top_queries=10):
        super().__init__()
        self.num_classes, self.use_focal_loss, self.num_top_queries = num_classes, use_focal_loss, num_top_queries
        self.deploy_mode = False

    def forward(self, outputs, orig_target_sizes):
        logits, boxes = outputs["pred_logits"], outputs["pred_boxes"]
        bbox_pred = box_cxcywh_to_xyxy(boxes)
        bbox_pred = bbox_pred * orig_target_sizes.repeat(1, 2).unsqueeze(1)
        scores = F.sigmoid(logits)
        scores, index = torch.topk(scores.flatten(1), self.num_top_queries, dim=-1)
        labels = index % self.num_classes
        index = index // self.num_classes
        boxes = bbox_pred.gather(dim=1, index=index.unsqueeze(-1).repeat(1, 1, bbox_pred.shape[-1]))
        if self.deploy_mode:
            return labels, boxes, scores
        return [dict(labels=lab, boxes=box, scores=sco) for lab, box, sco in zip(labels, boxes, scores)]

    def deploy(self):
        self.eval()
        self.deploy_mode = True
        return self

class YAMLConfig:
    def __init__(self, cfg_path, resume=None):
        self.model = RTDETR()
        self.postprocessor = RTDETRPostProcessor()

class DetSolver:
    def __init__(self, cfg, device):
        self.device = device
        self.model = cfg.model.to(device)

# the training session: the solver's model lives on the GPU
solver = DetSolver(YAMLConfig("configs/rtdetr/rtdetr_r18vd_6x_coco.yml"), torch.device("cuda:0"))

# tools/export_onnx.py
cfg = YAMLConfig("configs/rtdetr/rtdetr_r18vd_6x_coco.yml", resume="output/checkpoint.pth")
checkpoint = {"ema": {"module": RTDETR().state_dict()}}     # torch.load(args.resume, map_location='cpu')
state = checkpoint["ema"]["module"] if "ema" in checkpoint else checkpoint["model"]
cfg.model.load_state_dict(state)

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = cfg.model.deploy()
        self.postprocessor = cfg.postprocessor.deploy()

    def forward(self, images, orig_target_sizes):
        outputs = self.model(images)
        return self.postprocessor(outputs, orig_target_sizes)

model = Model()
'''
CELL = '''
data = torch.rand(1, 3, 640, 640)
size = torch.tensor([[640, 640]])
with torch.no_grad():
    labels, boxes, scores = model(data, size)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
