"""detectron2 Panoptic FPN on Windows: the mapper's `astype("long")` makes int32 semantic labels, and the sem-seg loss needs int64.

Source: https://github.com/facebookresearch/detectron2/pull/5455
"Fix Windows crash: panoptic_fpn.py passing int32 instead of long": training a Panoptic FPN on a
custom dataset under Windows stopped in the first `run_step`, in the semantic segmentation head's
cross-entropy ("expected scalar type Long but found Int"). `DatasetMapper` stores
`torch.as_tensor(sem_seg_gt.astype("long"))`, and NumPy's "long" is 32-bit on Windows, so every
`dataset_dict["sem_seg"]` is an IntTensor. Stand-in: the mapper's sem_seg step, PanopticFPN.forward
(padding the gt with `ImageList.from_tensors`-style stacking) and SemSegFPNHead.losses on a tiny
backbone; `astype("long")` written `astype(np.int32)` to get Windows' result on any platform.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class SemSegFPNHead(nn.Module):
    def __init__(self, in_channels=16, num_classes=4, ignore_value=255, loss_weight=0.5):
        super().__init__()
        self.predictor = nn.Conv2d(in_channels, num_classes, 1)
        self.ignore_value, self.loss_weight = ignore_value, loss_weight

    def forward(self, features, targets=None):
        x = self.predictor(features)
        if self.training:
            return None, self.losses(x, targets)
        return x, {}

    def losses(self, predictions, targets):
        predictions = F.interpolate(predictions, size=targets.shape[-2:], mode="bilinear", align_corners=False)
        loss = F.cross_entropy(predictions, targets, reduction="mean", ignore_index=self.ignore_value)
        return {"loss_sem_seg": loss * self.loss_weight}

class PanopticFPN(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU())
        self.sem_seg_head = SemSegFPNHead()
        self.device = torch.device("cpu")

    def forward(self, batched_inputs):
        images = torch.stack([x["image"].to(self.device).float() for x in batched_inputs])
        features = self.backbone(images)
        gt_sem_seg = [x["sem_seg"].to(self.device) for x in batched_inputs]
        gt_sem_seg = torch.stack(gt_sem_seg)            # ImageList.from_tensors(gt, ..., ignore_value).tensor
        sem_seg_results, sem_seg_losses = self.sem_seg_head(features, gt_sem_seg)
        return sem_seg_losses

def mapper(dataset_dict):                               # DatasetMapper.__call__ (sem_seg part)
    image = np.random.randint(0, 256, (32, 32, 3), dtype=np.uint8)
    sem_seg_gt = np.random.randint(0, 4, (32, 32)).astype(np.uint8)    # read_image(..., "L").squeeze(2)
    dataset_dict["image"] = torch.as_tensor(np.ascontiguousarray(image.transpose(2, 0, 1)))
    dataset_dict["sem_seg"] = torch.as_tensor(sem_seg_gt.astype(np.int32))   # .astype("long") on Windows
    return dataset_dict

model = PanopticFPN()
model.train()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
data = [mapper({"file_name": "img_0001.png"}), mapper({"file_name": "img_0002.png"})]
'''
CELL = '''
loss_dict = model(data)
losses = sum(loss_dict.values())
optimizer.zero_grad()
losses.backward()
optimizer.step()
'''
EXPECT_ERROR = ("expected scalar type Long but found Int", "expected target dtype to be Long")
CULPRITS = ["data[0]['sem_seg']", "data[1]['sem_seg']"]
FIX = "namespace"
REFERENCE_FIX = '''
for d in data:
    d["sem_seg"] = d["sem_seg"].long()
'''
REFERENCE_EDIT = None
CLEAN = False
