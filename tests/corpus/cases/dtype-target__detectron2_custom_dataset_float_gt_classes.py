"""detectron2 with a custom dataset: `Instances.gt_classes` built as a FloatTensor reaches the box head's classification loss.

Source: https://github.com/facebookresearch/detectron2/issues/250
"data type error running pretrained network": the user's own dataset `__getitem__` set
`object_instances.gt_classes = torch.FloatTensor(class_labels)`; training failed where the ROI heads
gather the sampled proposals' classes (`cat([p.gt_classes for p in proposals])`, "Expected object of
scalar type Long but got scalar type Float" in the PyTorch of the time; today's cat promotes and the
cross-entropy of FastRCNNOutputLayers refuses the float target instead). detectron2 expects int64
`gt_classes`. Stand-in: Instances, the ROI heads' proposal labeling (IoU matching, background class)
and the box predictor's loss, on fixed proposals and a one-conv backbone.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class Instances:
    def __init__(self, image_size, **kwargs):
        object.__setattr__(self, "_image_size", image_size)
        object.__setattr__(self, "_fields", {})
        for k, v in kwargs.items():
            self.set(k, v)

    def set(self, name, value):
        self._fields[name] = value

    def __setattr__(self, name, value):
        self.set(name, value)

    def __getattr__(self, name):
        if name in ("_fields", "_image_size"):
            raise AttributeError(name)
        return self._fields[name]

    def __len__(self):
        return len(next(iter(self._fields.values())))

def pairwise_iou(b1, b2):
    lt = torch.max(b1[:, None, :2], b2[None, :, :2])
    rb = torch.min(b1[:, None, 2:], b2[None, :, 2:])
    wh = (rb - lt).clamp(min=0)
    inter = wh[..., 0] * wh[..., 1]
    a1 = (b1[:, 2] - b1[:, 0]) * (b1[:, 3] - b1[:, 1])
    a2 = (b2[:, 2] - b2[:, 0]) * (b2[:, 3] - b2[:, 1])
    return inter / (a1[:, None] + a2[None, :] - inter)

class StandardROIHeads(nn.Module):
    def __init__(self, in_channels=16, num_classes=3, iou_threshold=0.5):
        super().__init__()
        self.num_classes, self.iou_threshold = num_classes, iou_threshold
        self.box_head = nn.Linear(in_channels, 32)
        self.cls_score = nn.Linear(32, num_classes + 1)

    def label_and_sample_proposals(self, proposals, targets):
        proposals_with_gt = []
        for proposals_per_image, targets_per_image in zip(proposals, targets):
            match_quality_matrix = pairwise_iou(targets_per_image.gt_boxes, proposals_per_image)
            matched_vals, matched_idxs = match_quality_matrix.max(dim=0)
            gt_classes = targets_per_image.gt_classes[matched_idxs]
            gt_classes[matched_vals < self.iou_threshold] = self.num_classes
            proposals_with_gt.append(Instances((64, 64), proposal_boxes=proposals_per_image, gt_classes=gt_classes))
        return proposals_with_gt

    def forward(self, features, proposals, targets):
        proposals = self.label_and_sample_proposals(proposals, targets)
        pooled = features.mean(dim=(2, 3))                                 # ROIPooler stand-in
        box_features = torch.cat([pooled[i].expand(len(p), -1) for i, p in enumerate(proposals)])
        scores = self.cls_score(F.relu(self.box_head(box_features)))
        gt_classes = torch.cat([p.gt_classes for p in proposals], dim=0)
        return {"loss_cls": F.cross_entropy(scores, gt_classes, reduction="mean")}

class GeneralizedRCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU())
        self.roi_heads = StandardROIHeads()
        xy = torch.rand(32, 2) * 48
        self.fixed_proposals = torch.cat([xy, xy + 16], dim=1)              # RPN stand-in

    def forward(self, batched_inputs):
        images = torch.stack([x["image"].float() for x in batched_inputs])
        gt_instances = [x["instances"] for x in batched_inputs]
        features = self.backbone(images)
        proposals = [self.fixed_proposals for _ in batched_inputs]
        return self.roi_heads(features, proposals, gt_instances)

class MyDataset(torch.utils.data.Dataset):
    def __len__(self):
        return 2

    def __getitem__(self, idx):
        image = torch.randint(0, 256, (3, 64, 64), dtype=torch.uint8)
        boxes = [[4.0, 4.0, 24.0, 24.0], [30.0, 30.0, 60.0, 58.0]]
        class_labels = [1, 2]
        object_instances = Instances((64, 64))
        object_instances.gt_boxes = torch.tensor(boxes)
        class_tensor = torch.FloatTensor(class_labels)
        object_instances.gt_classes = class_tensor
        return {"image": image, "instances": object_instances}

model = GeneralizedRCNN()
model.train()
dataset = MyDataset()
batched_inputs = [dataset[0], dataset[1]]
'''
CELL = '''
loss_dict = model(batched_inputs)
losses = sum(loss_dict.values())
losses.backward()
'''
EXPECT_ERROR = ("expected target dtype to be Long", "expected scalar type Long but found Float",
                "Expected object of scalar type Long but got scalar type Float")
CULPRITS = ["batched_inputs[0]['instances'].gt_classes", "batched_inputs[1]['instances'].gt_classes"]
FIX = "namespace"
REFERENCE_FIX = '''
for d in batched_inputs:
    d["instances"].gt_classes = d["instances"].gt_classes.long()
'''
REFERENCE_EDIT = None
CLEAN = False
