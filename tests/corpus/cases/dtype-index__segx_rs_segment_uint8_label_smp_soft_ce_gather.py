"""rs-segment.pytorch on a custom remote-sensing dataset: the uint8 grayscale labels reach smp's SoftCrossEntropyLoss, whose gather needs int64 indices.

Source: https://github.com/cxyth/rs-segment.pytorch/issues/2
"使用uint8类型的数据时会报错：RuntimeError: gather(): Expected dtype int64 for index" - training with
the repo's JointLoss(DiceLoss(mode='multiclass', ignore_index=...), SoftCrossEntropyLoss(smooth_factor,
ignore_index=...)) on the user's own Dataset. The user's `__getitem__` reads the label with
`cv2.imread(label_path, cv2.IMREAD_GRAYSCALE)` (uint8) and had commented out
`label = label.astype(np.int64)`; "if the int64 conversion is commented out, it raises the error" -
restoring that line is the fix. smp's multiclass DiceLoss casts its own one-hot input to long, so the
crash comes from `label_smoothed_nll_loss`'s `lprobs.gather(dim=dim, index=target)`. Stand-ins:
cv2/glob reads replaced by in-memory arrays, the albumentations transform by normalize + HWC->CHW,
create_model by a small conv net, smp DiceLoss/SoftCrossEntropyLoss and the repo's JointLoss kept
in their own code (multiclass / ignore_index branches).
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.modules.loss import _Loss
from torch.utils.data import Dataset, DataLoader

MULTICLASS_MODE = "multiclass"

def soft_dice_score(output, target, smooth=0.0, eps=1e-7, dims=None):
    intersection = torch.sum(output * target, dim=dims)
    cardinality = torch.sum(output + target, dim=dims)
    return (2.0 * intersection + smooth) / (cardinality + smooth).clamp_min(eps)

class DiceLoss(_Loss):
    def __init__(self, mode, classes=None, log_loss=False, from_logits=True, smooth=0.0, ignore_index=None, eps=1e-7):
        super().__init__()
        self.mode, self.classes, self.log_loss = mode, classes, log_loss
        self.from_logits, self.smooth, self.eps, self.ignore_index = from_logits, smooth, eps, ignore_index

    def forward(self, y_pred, y_true):
        if self.from_logits:
            y_pred = y_pred.log_softmax(dim=1).exp()
        bs = y_true.size(0)
        num_classes = y_pred.size(1)
        dims = (0, 2)
        if self.mode == MULTICLASS_MODE:
            y_true = y_true.view(bs, -1)
            y_pred = y_pred.view(bs, num_classes, -1)
            if self.ignore_index is not None:
                mask = y_true != self.ignore_index
                y_pred = y_pred * mask.unsqueeze(1)
                y_true = F.one_hot((y_true * mask).to(torch.long), num_classes)   # N,H*W -> N,H*W, C
                y_true = y_true.permute(0, 2, 1) * mask.unsqueeze(1)              # N, C, H*W
            else:
                y_true = F.one_hot(y_true, num_classes).permute(0, 2, 1)
        scores = soft_dice_score(y_pred, y_true.type_as(y_pred), smooth=self.smooth, eps=self.eps, dims=dims)
        loss = 1.0 - scores
        mask = y_true.sum(dims) > 0
        loss *= mask.to(loss.dtype)
        return loss.mean()

def label_smoothed_nll_loss(lprobs, target, epsilon, ignore_index=None, reduction="mean", dim=-1):
    if target.dim() == lprobs.dim() - 1:
        target = target.unsqueeze(dim)
    if ignore_index is not None:
        pad_mask = target.eq(ignore_index)
        target = target.masked_fill(pad_mask, 0)
        nll_loss = -lprobs.gather(dim=dim, index=target)
        smooth_loss = -lprobs.sum(dim=dim, keepdim=True)
        nll_loss = nll_loss.masked_fill(pad_mask, 0.0)
        smooth_loss = smooth_loss.masked_fill(pad_mask, 0.0)
    else:
        nll_loss = -lprobs.gather(dim=dim, index=target)
        smooth_loss = -lprobs.sum(dim=dim, keepdim=True)
        nll_loss = nll_loss.squeeze(dim)
        smooth_loss = smooth_loss.squeeze(dim)
    if reduction == "sum":
        nll_loss, smooth_loss = nll_loss.sum(), smooth_loss.sum()
    if reduction == "mean":
        nll_loss, smooth_loss = nll_loss.mean(), smooth_loss.mean()
    eps_i = epsilon / lprobs.size(dim)
    return (1.0 - epsilon) * nll_loss + eps_i * smooth_loss

class SoftCrossEntropyLoss(nn.Module):
    def __init__(self, reduction="mean", smooth_factor=None, ignore_index=-100, dim=1):
        super().__init__()
        self.smooth_factor, self.ignore_index, self.reduction, self.dim = smooth_factor, ignore_index, reduction, dim

    def forward(self, y_pred, y_true):
        log_prob = F.log_softmax(y_pred, dim=self.dim)
        return label_smoothed_nll_loss(log_prob, y_true, epsilon=self.smooth_factor,
                                       ignore_index=self.ignore_index, reduction=self.reduction, dim=self.dim)

class WeightedLoss(_Loss):
    def __init__(self, loss, weight=1.0):
        super().__init__()
        self.loss = loss
        self.weight = weight
    def forward(self, *input):
        return self.loss(*input) * self.weight

class JointLoss(_Loss):
    def __init__(self, first, second, first_weight=1.0, second_weight=1.0):
        super().__init__()
        self.first = WeightedLoss(first, first_weight)
        self.second = WeightedLoss(second, second_weight)
    def forward(self, *input):
        return self.first(*input) + self.second(*input)

def get_train_transform(in_size):
    """Stand-in for the albumentations pipeline: normalize the image, HWC -> CHW; the label is untouched."""
    def transform(image, label):
        image = ((image.astype(np.float32) / 255.0 - 0.5) / 0.25).transpose(2, 0, 1)
        return {"image": image, "label": label}
    return transform

class OwnDataset(Dataset):
    def __init__(self, lines, train, dataset_dir, transform):
        self.lines = lines
        self.train = train
        self.list = len(lines)
        self.dataset_dir = dataset_dir
        self.transform = transform
        rng = np.random.default_rng(0)
        self._images = {l: rng.integers(0, 256, (64, 64, 3), dtype=np.uint8) for l in lines}   # cv2.imread(image_path)
        self._labels = {l: rng.integers(0, 6, (64, 64)).astype(np.uint8) for l in lines}       # cv2.imread(label_path, IMREAD_GRAYSCALE)

    def __len__(self):
        return self.list

    def __getitem__(self, index):
        lines = self.lines[index]
        name = lines.split()[0]
        image = self._images[name]
        label = self._labels[name]
        transformed = self.transform(image=image, label=label)
        image = transformed['image']
        label = transformed['label']
        # label = label.astype(np.int64)
        return {
            'image': image,
            'label': label
        }

def create_model(n_class=6):
    """Stand-in for models.create_model(cfg): a small encoder-decoder."""
    return nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
                         nn.Conv2d(16, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, n_class, 1))

ignore_index = 255
smoothing = 0.1
train_data = OwnDataset([f"tile_{i:03d}" for i in range(8)], True, "data/gid5", get_train_transform(256))
train_loader = DataLoader(dataset=train_data, batch_size=4, shuffle=True, num_workers=0, drop_last=True)

model = create_model(n_class=6)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
DiceLoss_fn = DiceLoss(mode='multiclass', ignore_index=ignore_index)
SoftCrossEntropy_fn = SoftCrossEntropyLoss(smooth_factor=smoothing, ignore_index=ignore_index)
criterion = JointLoss(first=DiceLoss_fn, second=SoftCrossEntropy_fn, first_weight=0.5, second_weight=0.5)

batch_samples = next(iter(train_loader))
data, target = batch_samples['image'], batch_samples['label']
'''
CELL = '''
model.train()
optimizer.zero_grad()
pred = model(data)
loss = criterion(pred, target)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = ("Expected dtype int64 for index", "Expected dtype int32/int64 for index")
CULPRITS = ["train_data"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        # label = label.astype(np.int64)\n",
                  "        label = label.astype(np.int64)\n")
CLEAN = False
