"""Faster R-CNN on BDD100K: ground-truth labels built with `Tensor(labels)` are float32, not int64.

Source: https://github.com/prajjwal1/autonomous-object-detection/issues/7
Training the repo's baseline (`train_baseline.py`, torchvision `fasterrcnn_resnet50_fpn`) stops in
`roi_heads.py` with "target labels must of int64 type". The maintainer: "the data type of tensors
inside target list is not of type torch.int64. This can be fixed by type casting the tensors to
torch.int64". The repo's `get_ground_truths` (datasets/bdd.py) collects the class ids and stores them
with `Tensor(labels)`, the legacy float32 constructor. Stand-in: the dataset code as in the repo
(annotations as an in-memory list, image loading replaced by a random tensor, ToTensor dropped);
the detector is reduced to torchvision's target check in `RoIHeads` plus a small classification
loss on the ground-truth boxes.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn, Tensor
from torch.utils.data import Dataset

def get_ground_truths(train_img_path_list, anno_data):
    bboxes, total_bboxes = [], []
    labels, total_labels = [], []
    classes = {'bus': 0, 'traffic light': 1, 'traffic sign': 2, 'person': 3, 'bike': 4, 'truck': 5,
               'motor': 6, 'car': 7, 'train': 8, 'rider': 9, 'drivable area': 10, 'lane': 11}
    for i in range(len(train_img_path_list)):
        for j in range(len(anno_data[i]['labels'])):
            if 'box2d' in anno_data[i]['labels'][j]:
                box = anno_data[i]['labels'][j]['box2d']
                bboxes.append([box['x1'], box['y1'], box['x2'], box['y2']])
                labels.append(classes[anno_data[i]['labels'][j]['category']])
        total_bboxes.append(Tensor(bboxes))
        total_labels.append(Tensor(labels))
        bboxes = []
        labels = []
    return total_bboxes, total_labels

class BDD(Dataset):
    def __init__(self, img_path, anno_data, transforms=None):
        super().__init__()
        self.img_path = img_path
        self.anno_data = anno_data
        self.total_bboxes_list, self.total_labels_list = get_ground_truths(self.img_path, self.anno_data)
        self.transforms = transforms

    def __len__(self):
        return len(self.img_path)

    def __getitem__(self, idx):
        img = torch.rand(3, 72, 128)                   # Image.open(...) + ToTensor stand-in
        labels = self.total_labels_list[idx]
        bboxes = self.total_bboxes_list[idx]
        area = (bboxes[:, 3] - bboxes[:, 1]) * (bboxes[:, 2] - bboxes[:, 0])
        target = {"boxes": bboxes, "labels": labels, "image_id": Tensor([idx]), "area": area,
                  "iscrowd": torch.zeros(len(bboxes,), dtype=torch.int64)}
        return img, target

def collate_fn(batch):
    return tuple(zip(*batch))

class RoIHeads(nn.Module):
    """torchvision RoIHeads: target checks, then a box classifier on the gt boxes (stand-in)."""
    def __init__(self, num_classes):
        super().__init__()
        self.box_predictor = nn.Linear(4, num_classes)

    def forward(self, features, proposals, image_shapes, targets=None):
        if targets is not None:
            for t in targets:
                floating_point_types = (torch.float, torch.double, torch.half)
                if not t["boxes"].dtype in floating_point_types:
                    raise TypeError(f"target boxes must of float type, instead got {t['boxes'].dtype}")
                if not t["labels"].dtype == torch.int64:
                    raise TypeError(f"target labels must of int64 type, instead got {t['labels'].dtype}")
        boxes = torch.cat([t["boxes"] for t in targets])
        labels = torch.cat([t["labels"] for t in targets])
        class_logits = self.box_predictor(boxes / 100.0)
        return {"loss_classifier": F.cross_entropy(class_logits, labels)}

class FasterRCNN(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.backbone = nn.Conv2d(3, 8, 3, stride=8)
        self.roi_heads = RoIHeads(num_classes)

    def forward(self, images, targets=None):
        features = self.backbone(torch.stack(images))
        return self.roi_heads(features, None, [img.shape[-2:] for img in images], targets)

anno_data = [
    {"name": "a.jpg", "labels": [{"category": "car", "box2d": {"x1": 10.0, "y1": 20.0, "x2": 60.0, "y2": 50.0}},
                                 {"category": "person", "box2d": {"x1": 70.0, "y1": 5.0, "x2": 90.0, "y2": 60.0}},
                                 {"category": "lane", "poly2d": []}]},
    {"name": "b.jpg", "labels": [{"category": "traffic sign", "box2d": {"x1": 1.0, "y1": 2.0, "x2": 12.0, "y2": 14.0}}]},
]
train_img_path_list = ["bdd100k/images/100k/train/a.jpg", "bdd100k/images/100k/train/b.jpg"]
device = torch.device("cpu")
dataset = BDD(train_img_path_list, anno_data)
model = FasterRCNN(num_classes=12).to(device)
model.train()
'''
CELL = '''
images, targets = collate_fn([dataset[0], dataset[1]])
images = list(image.to(device) for image in images)
targets = [{k: v.to(device) for k, v in t.items()} for t in targets]
loss_dict = model(images, targets)
losses = sum(loss for loss in loss_dict.values())
'''
EXPECT_ERROR = "target labels must of int64 type"
CULPRITS = ["get_ground_truths"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("total_labels.append(Tensor(labels))", "total_labels.append(torch.tensor(labels, dtype=torch.int64))")
CLEAN = False
