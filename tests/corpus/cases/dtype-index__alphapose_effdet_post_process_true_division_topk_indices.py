"""AlphaPose's EfficientDet detector: `_post_process` divides the top-k indices with `/`, giving float indices to `torch.gather`.

Source: https://github.com/MVIG-SJTU/AlphaPose/pull/886
"Fix bug in bench.py": using efficientdet as AlphaPose's detector failed in
`detector/efficientdet/effdet/bench.py` `_post_process` with "gather_out_cuda(): Expected dtype int64 for
index". The anchor indices are computed as `cls_topk_indices_all / config.num_classes`, which is true
division (a float tensor) in current PyTorch, and then used as `torch.gather`'s index; the PR casts the
index to long. Stand-in: EfficientDet reduced to a two-level class/box head, DetBenchEval and the
`_post_process` of effdet's bench (no NMS/batch_detection).
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn as nn

MAX_DETECTION_POINTS = 50

def _post_process(config, cls_outputs, box_outputs):
    batch_size = cls_outputs[0].shape[0]
    cls_outputs_all = torch.cat([
        cls_outputs[level].permute(0, 2, 3, 1).reshape([batch_size, -1, config.num_classes])
        for level in range(config.num_levels)], 1)
    box_outputs_all = torch.cat([
        box_outputs[level].permute(0, 2, 3, 1).reshape([batch_size, -1, 4])
        for level in range(config.num_levels)], 1)
    _, cls_topk_indices_all = torch.topk(cls_outputs_all.reshape(batch_size, -1), dim=1, k=MAX_DETECTION_POINTS)
    indices_all = cls_topk_indices_all / config.num_classes
    classes_all = cls_topk_indices_all % config.num_classes
    box_outputs_all_after_topk = torch.gather(box_outputs_all, 1, indices_all.unsqueeze(2).expand(-1, -1, 4))
    cls_outputs_all_after_topk = torch.gather(
        cls_outputs_all, 1, indices_all.unsqueeze(2).expand(-1, -1, config.num_classes))
    cls_outputs_all_after_topk = torch.gather(cls_outputs_all_after_topk, 2, classes_all.unsqueeze(2))
    return cls_outputs_all_after_topk, box_outputs_all_after_topk, indices_all, classes_all

class EfficientDet(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.backbone = nn.ModuleList([nn.Conv2d(3, 16, 3, 4, 1), nn.Conv2d(16, 16, 3, 2, 1)])
        self.class_net = nn.Conv2d(16, config.num_anchors * config.num_classes, 3, padding=1)
        self.box_net = nn.Conv2d(16, config.num_anchors * 4, 3, padding=1)

    def forward(self, x):
        feats = []
        for conv in self.backbone:
            x = torch.relu(conv(x))
            feats.append(x)
        return [self.class_net(f) for f in feats], [self.box_net(f) for f in feats]

class DetBenchEval(nn.Module):
    def __init__(self, model, config):
        super().__init__()
        self.config = config
        self.model = model

    def forward(self, x, image_scales):
        class_out, box_out = self.model(x)
        class_out, box_out, indices, classes = _post_process(self.config, class_out, box_out)
        return class_out, box_out, indices, classes

config = SimpleNamespace(num_classes=90, num_levels=2, num_anchors=9)
model = DetBenchEval(EfficientDet(config), config).eval()
imgs = torch.rand(2, 3, 64, 64)
scaling_factors = torch.ones(2)
'''
CELL = '''
with torch.no_grad():
    prediction = model(imgs, scaling_factors)
'''
EXPECT_ERROR = ("Expected dtype int64 for index", "Expected dtype int32/int64 for index")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("indices_all = cls_topk_indices_all / config.num_classes",
                  "indices_all = cls_topk_indices_all // config.num_classes")
CLEAN = False
