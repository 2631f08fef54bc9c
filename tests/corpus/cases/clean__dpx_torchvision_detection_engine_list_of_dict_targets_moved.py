"""Look-alike: torchvision's detection reference collates images and per-image target dicts as tuples and moves each one to the device.

Source: https://github.com/pytorch/vision/blob/main/references/detection/engine.py
`collate_fn = lambda batch: tuple(zip(*batch))` keeps a tuple of CPU images and a tuple of target
dicts; `train_one_epoch` then does `images = list(image.to(device) for image in images)` and
`targets = [{k: v.to(device) if isinstance(v, torch.Tensor) else v for k, v in t.items()} for t in
targets]`. Nested containers of CPU tensors, all moved before the model: nothing is left behind.
Stand-in: a toy detector (pooled features, box regression and classification losses) on cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def collate_fn(batch):
    return tuple(zip(*batch))

class ToyDetector(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.backbone = nn.Linear(3, 16)
        self.box_head = nn.Linear(16, 4)
        self.cls_head = nn.Linear(16, num_classes)
    def forward(self, images, targets):
        feats = torch.stack([self.backbone(img.mean(dim=(1, 2))) for img in images])
        boxes = torch.stack([t["boxes"][0] for t in targets])
        labels = torch.stack([t["labels"][0] for t in targets])
        return {"loss_box_reg": nn.functional.smooth_l1_loss(self.box_head(feats), boxes),
                "loss_classifier": nn.functional.cross_entropy(self.cls_head(feats), labels)}

device = torch.device("cuda:0")
model = ToyDetector().to(device)
dataset = [(torch.rand(3, 16, 16), {"boxes": torch.tensor([[1.0, 2.0, 8.0, 9.0]]),
                                     "labels": torch.tensor([i % 3]), "image_id": i}) for i in range(4)]
images, targets = collate_fn(dataset)
'''
CELL = '''
images = list(image.to(device) for image in images)
targets = [{k: v.to(device) if isinstance(v, torch.Tensor) else v for k, v in t.items()} for t in targets]
with torch.no_grad():
    loss_dict = model(images, targets)
    losses = sum(loss for loss in loss_dict.values())
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
