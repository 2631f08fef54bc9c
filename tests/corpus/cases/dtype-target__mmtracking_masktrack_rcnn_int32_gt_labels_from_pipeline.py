"""mmtracking MaskTrack R-CNN on YouTube-VIS: the pipeline hands the classification loss int32 labels.

Source: https://github.com/open-mmlab/mmtracking/issues/446
Training `masktrack_rcnn_r50_fpn_12e_youtubevis2021.py` failed in `nll_loss` with "Expected object of
scalar type Long but got scalar type Int for argument #2 'target'". The maintainer: convert the
target, i.e. the label, from int to long in the data pipeline (`SeqLoadAnnotations`); the user
then asked how to change the dtype there. Stand-in: the annotation loading (labels as an int32 numpy
array, as `np.array(..., dtype=int)` gives on Windows), the formatting bundle's `to_tensor`, and a
small head whose `loss` applies cross-entropy to the per-frame labels.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

def to_tensor(data):
    if isinstance(data, np.ndarray):
        return torch.from_numpy(data)
    return torch.as_tensor(data)

class SeqLoadAnnotations:
    def __call__(self, results):
        for r in results:
            anns = r["ann_info"]
            r["gt_bboxes"] = np.array(anns["bboxes"], dtype=np.float32)
            r["gt_labels"] = np.array(anns["labels"], dtype=np.int32)
            r["gt_instance_ids"] = np.array(anns["instance_ids"], dtype=np.int32)
        return results

class SeqDefaultFormatBundle:
    def __call__(self, results):
        out = {}
        for key in ("gt_bboxes", "gt_labels", "gt_instance_ids"):
            out[key] = to_tensor(np.stack([r[key] for r in results]))
        out["img"] = torch.randn(len(results), 3, 64, 64)
        return out

class RoIClsHead(nn.Module):
    def __init__(self, num_classes=40):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc_cls = nn.Linear(16, 4 * (num_classes + 1))
        self.num_classes = num_classes

    def forward(self, img):
        return self.fc_cls(self.backbone(img)).view(img.shape[0] * 4, self.num_classes + 1)

    def loss(self, cls_score, labels):
        return dict(loss_cls=F.cross_entropy(cls_score, labels))

pipeline = [SeqLoadAnnotations(), SeqDefaultFormatBundle()]
frames = [dict(ann_info=dict(bboxes=np.random.rand(4, 4) * 60, labels=[3, 7, 7, 12], instance_ids=[0, 1, 2, 3]))
          for _ in range(2)]
data = frames
for t in pipeline:
    data = t(data)
model = RoIClsHead()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
'''
CELL = '''
cls_score = model(data["img"])
losses = model.loss(cls_score, data["gt_labels"].view(-1))
losses["loss_cls"].backward()
optimizer.step()
'''
EXPECT_ERROR = ("expected target dtype to be Long", "expected scalar type Long but found Int")
CULPRITS = ["data['gt_labels']"]
FIX = "namespace"
REFERENCE_FIX = '''
data["gt_labels"] = data["gt_labels"].long()
'''
REFERENCE_EDIT = None
CLEAN = False
