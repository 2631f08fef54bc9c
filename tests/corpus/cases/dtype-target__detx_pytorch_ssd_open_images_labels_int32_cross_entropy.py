"""pytorch-ssd retraining on Open Images: the dataset's labels are int32, and MultiboxLoss's cross_entropy wants int64.

Source: https://github.com/qfgaohao/pytorch-ssd/issues/66
Retraining mb1-ssd on a selection of Open Images (on Windows) fails in `MultiboxLoss.forward` with
"Expected object of type torch.LongTensor but found type torch.IntTensor for argument #2 'target'".
`OpenImagesDataset._read_data` builds `labels = np.array([class_dict[name] for name in group["ClassName"]])`,
and numpy's default integer there is 32-bit, so the labels stay int32 through `MatchPrior` and the
DataLoader into `F.cross_entropy`. The fix (PR #74, by the reporter): make the labels int64 in
`_read_data` ("make labels 64 bits to satisfy the cross_entropy function").
Stand-in: `OpenImagesDataset` reads its annotations from an in-memory table instead of a CSV and returns
random images; numpy's Windows default integer is spelled `dtype=DEFAULT_INT` (np.int32). `MatchPrior`,
`assign_priors`, `hard_negative_mining` and `MultiboxLoss` follow the repo; the SSD is one conv level.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader

DEFAULT_INT = np.int32        # numpy's default integer on Windows

def area_of(left_top, right_bottom):
    hw = torch.clamp(right_bottom - left_top, min=0.0)
    return hw[..., 0] * hw[..., 1]

def iou_of(boxes0, boxes1, eps=1e-5):
    overlap_left_top = torch.max(boxes0[..., :2], boxes1[..., :2])
    overlap_right_bottom = torch.min(boxes0[..., 2:], boxes1[..., 2:])
    overlap_area = area_of(overlap_left_top, overlap_right_bottom)
    area0 = area_of(boxes0[..., :2], boxes0[..., 2:])
    area1 = area_of(boxes1[..., :2], boxes1[..., 2:])
    return overlap_area / (area0 + area1 - overlap_area + eps)

def assign_priors(gt_boxes, gt_labels, corner_form_priors, iou_threshold):
    ious = iou_of(gt_boxes.unsqueeze(0), corner_form_priors.unsqueeze(1))
    best_target_per_prior, best_target_per_prior_index = ious.max(1)
    best_prior_per_target, best_prior_per_target_index = ious.max(0)
    for target_index, prior_index in enumerate(best_prior_per_target_index):
        best_target_per_prior_index[prior_index] = target_index
    best_target_per_prior.index_fill_(0, best_prior_per_target_index, 2)
    labels = gt_labels[best_target_per_prior_index]
    labels[best_target_per_prior < iou_threshold] = 0
    boxes = gt_boxes[best_target_per_prior_index]
    return boxes, labels

def hard_negative_mining(loss, labels, neg_pos_ratio):
    pos_mask = labels > 0
    num_pos = pos_mask.long().sum(dim=1, keepdim=True)
    num_neg = num_pos * neg_pos_ratio
    loss[pos_mask] = -math.inf
    _, indexes = loss.sort(dim=1, descending=True)
    _, orders = indexes.sort(dim=1)
    neg_mask = orders < num_neg
    return pos_mask | neg_mask

def make_priors(image_size=64, stride=8, sizes=(12, 24)):
    n = image_size // stride
    priors = [[(i + 0.5) / n, (j + 0.5) / n, s / image_size, s / image_size]
              for j in range(n) for i in range(n) for s in sizes]
    return torch.tensor(priors)

def center_form_to_corner_form(locations):
    return torch.cat([locations[..., :2] - locations[..., 2:] / 2, locations[..., :2] + locations[..., 2:] / 2], -1)

def corner_form_to_center_form(boxes):
    return torch.cat([(boxes[..., :2] + boxes[..., 2:]) / 2, boxes[..., 2:] - boxes[..., :2]], -1)

def convert_boxes_to_locations(center_form_boxes, center_form_priors, center_variance, size_variance):
    return torch.cat([
        (center_form_boxes[..., :2] - center_form_priors[..., :2]) / center_form_priors[..., 2:] / center_variance,
        torch.log(center_form_boxes[..., 2:] / center_form_priors[..., 2:]) / size_variance], dim=-1)

class MatchPrior(object):
    def __init__(self, center_form_priors, center_variance, size_variance, iou_threshold):
        self.center_form_priors = center_form_priors
        self.corner_form_priors = center_form_to_corner_form(center_form_priors)
        self.center_variance, self.size_variance, self.iou_threshold = center_variance, size_variance, iou_threshold

    def __call__(self, gt_boxes, gt_labels):
        if type(gt_boxes) is np.ndarray:
            gt_boxes = torch.from_numpy(gt_boxes)
        if type(gt_labels) is np.ndarray:
            gt_labels = torch.from_numpy(gt_labels)
        boxes, labels = assign_priors(gt_boxes, gt_labels, self.corner_form_priors, self.iou_threshold)
        boxes = corner_form_to_center_form(boxes)
        locations = convert_boxes_to_locations(boxes, self.center_form_priors, self.center_variance, self.size_variance)
        return locations, labels

class OpenImagesDataset:
    def __init__(self, annotations, transform=None, target_transform=None, dataset_type="train"):
        self.annotations = annotations
        self.transform, self.target_transform = transform, target_transform
        self.dataset_type = dataset_type.lower()
        self.data, self.class_names, self.class_dict = self._read_data()
        self.ids = [info['image_id'] for info in self.data]

    def _read_data(self):
        class_names = ['BACKGROUND'] + sorted({row["ClassName"] for row in self.annotations})
        class_dict = {class_name: i for i, class_name in enumerate(class_names)}
        data = []
        for image_id in sorted({row["ImageID"] for row in self.annotations}):
            group = [row for row in self.annotations if row["ImageID"] == image_id]
            boxes = np.array([[r["XMin"], r["YMin"], r["XMax"], r["YMax"]] for r in group]).astype(np.float32)
            labels = np.array([class_dict[r["ClassName"]] for r in group], dtype=DEFAULT_INT)
            data.append({'image_id': image_id, 'boxes': boxes, 'labels': labels})
        return data, class_names, class_dict

    def _read_image(self, image_id):
        return np.random.RandomState(len(image_id)).randint(0, 255, (64, 64, 3)).astype(np.uint8)

    def __getitem__(self, index):
        image_info = self.data[index]
        image = self._read_image(image_info['image_id'])
        boxes = image_info['boxes'].copy()
        labels = image_info['labels'].copy()
        if self.transform:
            image = self.transform(image)
        if self.target_transform:
            boxes, labels = self.target_transform(boxes, labels)
        return image, boxes, labels

    def __len__(self):
        return len(self.data)

class MultiboxLoss(nn.Module):
    def __init__(self, priors, iou_threshold, neg_pos_ratio, center_variance, size_variance, device):
        super().__init__()
        self.iou_threshold, self.neg_pos_ratio = iou_threshold, neg_pos_ratio
        self.center_variance, self.size_variance = center_variance, size_variance
        self.priors = priors.to(device)

    def forward(self, confidence, predicted_locations, labels, gt_locations):
        num_classes = confidence.size(2)
        with torch.no_grad():
            loss = -F.log_softmax(confidence, dim=2)[:, :, 0]
            mask = hard_negative_mining(loss, labels, self.neg_pos_ratio)
        confidence = confidence[mask, :]
        classification_loss = F.cross_entropy(confidence.reshape(-1, num_classes), labels[mask], reduction='sum')
        pos_mask = labels > 0
        predicted_locations = predicted_locations[pos_mask, :].reshape(-1, 4)
        gt_locations = gt_locations[pos_mask, :].reshape(-1, 4)
        smooth_l1_loss = F.smooth_l1_loss(predicted_locations, gt_locations, reduction='sum')
        num_pos = gt_locations.size(0)
        return smooth_l1_loss / num_pos, classification_loss / num_pos

class SSD(nn.Module):
    def __init__(self, num_classes, num_priors_per_loc=2):
        super().__init__()
        self.num_classes = num_classes
        self.base_net = nn.Sequential(nn.Conv2d(3, 16, 3, 8, 1), nn.ReLU())
        self.classification_header = nn.Conv2d(16, num_priors_per_loc * num_classes, 3, padding=1)
        self.regression_header = nn.Conv2d(16, num_priors_per_loc * 4, 3, padding=1)

    def forward(self, x):
        x = self.base_net(x)
        confidence = self.classification_header(x).permute(0, 2, 3, 1).reshape(x.size(0), -1, self.num_classes)
        locations = self.regression_header(x).permute(0, 2, 3, 1).reshape(x.size(0), -1, 4)
        return confidence, locations

DEVICE = torch.device("cpu")
priors = make_priors()
annotations = [
    {"ImageID": "000a1", "ClassName": "Person", "XMin": 0.10, "YMin": 0.10, "XMax": 0.45, "YMax": 0.60},
    {"ImageID": "000a1", "ClassName": "Car", "XMin": 0.50, "YMin": 0.40, "XMax": 0.95, "YMax": 0.90},
    {"ImageID": "000b22", "ClassName": "Car", "XMin": 0.20, "YMin": 0.30, "XMax": 0.70, "YMax": 0.80},
    {"ImageID": "000c333", "ClassName": "Person", "XMin": 0.05, "YMin": 0.05, "XMax": 0.40, "YMax": 0.50},
]
train_transform = lambda image: torch.from_numpy(image.astype(np.float32) / 255.0).permute(2, 0, 1)
target_transform = MatchPrior(priors, 0.1, 0.2, 0.5)
train_dataset = OpenImagesDataset(annotations, transform=train_transform, target_transform=target_transform)
train_loader = DataLoader(train_dataset, batch_size=3, num_workers=0, shuffle=True)
net = SSD(num_classes=len(train_dataset.class_names)).to(DEVICE)
criterion = MultiboxLoss(priors, iou_threshold=0.5, neg_pos_ratio=3, center_variance=0.1, size_variance=0.2, device=DEVICE)
optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9, weight_decay=5e-4)
'''
CELL = '''
net.train()
for i, data in enumerate(train_loader):
    images, boxes, labels = data
    images, boxes, labels = images.to(DEVICE), boxes.to(DEVICE), labels.to(DEVICE)
    optimizer.zero_grad()
    confidence, locations = net(images)
    regression_loss, classification_loss = criterion(confidence, locations, labels, boxes)
    loss = regression_loss + classification_loss
    loss.backward()
    optimizer.step()
'''
EXPECT_ERROR = ("expected scalar type Long", "expected target dtype to be Long", "Expected object of scalar type Long",
                "but found type torch.IntTensor")
CULPRITS = ["train_dataset"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('labels = np.array([class_dict[r["ClassName"]] for r in group], dtype=DEFAULT_INT)',
                  'labels = np.array([class_dict[r["ClassName"]] for r in group], dtype=np.int64)')
CLEAN = False
