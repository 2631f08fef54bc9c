"""Look-alike: detection training loop that moves every per-image target dict, as torchvision's reference does.

Source: https://github.com/pytorch/vision/issues/2502
The reference `engine.py` moves the images with `list(image.to(device) for image in images)` and the
targets with `[{k: v.to(device) for k, v in t.items()} for t in targets]` before
`model(images, targets)` (the thread explains this line is needed for training). Labels nested in a
list of dicts, all on the device: nothing to report. Stand-in: a tiny DETR/Faster-RCNN-like loss.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class TinyDetector(nn.Module):
    def __init__(self, num_queries=10, num_classes=5, d=32):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, d, 4, stride=4), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.query_embed = nn.Embedding(num_queries, d)
        self.class_embed = nn.Linear(d, num_classes + 1)
        self.bbox_embed = nn.Linear(d, 4)

    def forward(self, images, targets):
        loss = 0.0
        for image, target in zip(images, targets):
            feats = self.backbone(image.unsqueeze(0)) + self.query_embed.weight
            out_prob = self.class_embed(feats).softmax(-1)
            out_bbox = self.bbox_embed(feats).sigmoid()
            cost_class = -out_prob.index_select(1, target["labels"])
            cost_bbox = (out_bbox.unsqueeze(1) - target["boxes"].unsqueeze(0)).abs().sum(-1)
            loss = loss + (cost_class + cost_bbox).min(0).values.mean()
        return {"loss": loss}

device = torch.device("cuda:0")
model = TinyDetector().to(device)
images = [torch.randn(3, 64, 64), torch.randn(3, 64, 48)]
targets = [{"labels": torch.tensor([1, 3]), "boxes": torch.rand(2, 4), "image_id": torch.tensor(7)},
           {"labels": torch.tensor([2]), "boxes": torch.rand(1, 4), "image_id": torch.tensor(8)}]
'''
CELL = '''
images = list(image.to(device) for image in images)
targets = [{k: v.to(device) for k, v in t.items()} for t in targets]
loss_dict = model(images, targets)
losses = sum(loss for loss in loss_dict.values())
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
