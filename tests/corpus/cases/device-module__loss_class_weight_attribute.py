"""A loss submodule keeps its class weights as a plain tensor attribute, deep inside the model.

Source: https://github.com/open-mmlab/mmaction2/issues/1456
With `class_weight` set in the config, mmaction2's `CrossEntropyLoss` stored
`self.class_weight = torch.Tensor(class_weight)`; the recognizer (model -> cls_head -> loss_cls)
was moved to the GPU but that attribute was not, and `F.cross_entropy(..., weight=...)` raised
(fixed upstream by moving the weight to the score's device).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

class CrossEntropyLoss(nn.Module):
    def __init__(self, loss_weight=1.0, class_weight=None):
        super().__init__()
        self.loss_weight = loss_weight
        self.class_weight = None if class_weight is None else torch.Tensor(class_weight)

    def forward(self, cls_score, label):
        return self.loss_weight * F.cross_entropy(cls_score, label, weight=self.class_weight)

class I3DHead(nn.Module):
    def __init__(self, num_classes, in_channels, loss_cls):
        super().__init__()
        self.fc_cls = nn.Linear(in_channels, num_classes)
        self.loss_cls = loss_cls

    def loss(self, cls_score, label):
        return {"loss_cls": self.loss_cls(cls_score, label)}

class Recognizer3D(nn.Module):
    def __init__(self, cls_head):
        super().__init__()
        self.backbone = nn.Sequential(nn.Flatten(), nn.Linear(3 * 4 * 8 * 8, 64), nn.ReLU())
        self.cls_head = cls_head

    def forward_train(self, imgs, label):
        cls_score = self.cls_head.fc_cls(self.backbone(imgs))
        return self.cls_head.loss(cls_score, label)

model = Recognizer3D(I3DHead(3, 64, CrossEntropyLoss(class_weight=[1.0, 3.0, 5.0])))
model = model.to("cuda:0")
imgs = torch.randn(2, 3, 4, 8, 8, device="cuda:0")
label = torch.tensor([0, 2], device="cuda:0")
'''
CELL = '''
losses = model.forward_train(imgs, label)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.cls_head.loss_cls.class_weight"]
FIX = "namespace"
REFERENCE_FIX = '''
model.cls_head.loss_cls.class_weight = model.cls_head.loss_cls.class_weight.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
