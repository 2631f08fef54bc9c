"""Look-alike: EfficientDet's Normalizer produces float64 images and float64 boxes, but Resizer and collater hand float32 to the model.

Source: https://github.com/zylo117/Yet-Another-EfficientDet-Pytorch/blob/master/efficientdet/dataset.py
`Normalizer` subtracts a NumPy float64 mean (`np.array([[mean]])`), so the image leaving it is
float64, and `load_annotations` builds float64 box arrays. The pipeline is right: `Resizer` returns
`torch.from_numpy(new_image).to(torch.float32)`, and `collater` copies the float64 boxes into an
`annot_padded = torch.ones(...) * -1` float32 tensor; the loss turns the class column into indices
with `.long()`. Stand-in: COCO loading and cv2.resize replaced by NumPy (random images and boxes),
a small conv detector for EfficientDetBackbone and a reduced focal/regression loss; train.py's step.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

np.random.seed(0); torch.manual_seed(0)

class CocoDataset(torch.utils.data.Dataset):
    """Stand-in: images as load_image returns them (float32 / 255.), boxes as load_annotations (float64)."""
    def __init__(self, root_dir, set='train2017', transform=None, n=8):
        self.root_dir, self.set_name, self.transform, self.n = root_dir, set, transform, n

    def __len__(self):
        return self.n

    def __getitem__(self, idx):
        img = self.load_image(idx)
        annot = self.load_annotations(idx)
        sample = {'img': img, 'annot': annot}
        if self.transform:
            sample = self.transform(sample)
        return sample

    def load_image(self, image_index):
        img = np.random.randint(0, 256, (96 + 8 * image_index, 128, 3)).astype(np.uint8)
        return img.astype(np.float32) / 255.

    def load_annotations(self, image_index):
        annotations = np.zeros((0, 5))
        for k in range(1 + image_index % 3):
            annotation = np.zeros((1, 5))
            annotation[0, :4] = [10 + k, 12, 30 + 5 * k, 40]
            annotation[0, 4] = (image_index + k) % 4
            annotations = np.append(annotations, annotation, axis=0)
        annotations[:, 2] = annotations[:, 0] + annotations[:, 2]
        annotations[:, 3] = annotations[:, 1] + annotations[:, 3]
        return annotations

class Normalizer(object):

    def __init__(self, mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225]):
        self.mean = np.array([[mean]])
        self.std = np.array([[std]])

    def __call__(self, sample):
        image, annots = sample['img'], sample['annot']

        return {'img': ((image.astype(np.float32) - self.mean) / self.std), 'annot': annots}

class Augmenter(object):
    """Convert ndarrays in sample to Tensors."""

    def __call__(self, sample, flip_x=0.5):
        if np.random.rand() < flip_x:
            image, annots = sample['img'], sample['annot']
            image = image[:, ::-1, :]
            rows, cols, channels = image.shape
            x1 = annots[:, 0].copy()
            x2 = annots[:, 2].copy()
            x_tmp = x1.copy()
            annots[:, 0] = cols - x2
            annots[:, 2] = cols - x_tmp
            sample = {'img': image, 'annot': annots}
        return sample

def _resize(image, size):   # cv2.resize(image, size, interpolation=cv2.INTER_LINEAR) stand-in
    w, h = size
    ys = (np.arange(h) * image.shape[0] / h).astype(int)
    xs = (np.arange(w) * image.shape[1] / w).astype(int)
    return image[ys][:, xs]

class Resizer(object):
    """Convert ndarrays in sample to Tensors."""

    def __init__(self, img_size=512):
        self.img_size = img_size

    def __call__(self, sample):
        image, annots = sample['img'], sample['annot']
        height, width, _ = image.shape
        if height > width:
            scale = self.img_size / height
            resized_height = self.img_size
            resized_width = int(width * scale)
        else:
            scale = self.img_size / width
            resized_height = int(height * scale)
            resized_width = self.img_size

        image = _resize(image, (resized_width, resized_height))

        new_image = np.zeros((self.img_size, self.img_size, 3))
        new_image[0:resized_height, 0:resized_width] = image

        annots[:, :4] *= scale

        return {'img': torch.from_numpy(new_image).to(torch.float32), 'annot': torch.from_numpy(annots), 'scale': scale}

def collater(data):
    imgs = [s['img'] for s in data]
    annots = [s['annot'] for s in data]
    scales = [s['scale'] for s in data]

    imgs = torch.from_numpy(np.stack(imgs, axis=0))

    max_num_annots = max(annot.shape[0] for annot in annots)

    if max_num_annots > 0:
        annot_padded = torch.ones((len(annots), max_num_annots, 5)) * -1
        for idx, annot in enumerate(annots):
            if annot.shape[0] > 0:
                annot_padded[idx, :annot.shape[0], :] = annot
    else:
        annot_padded = torch.ones((len(annots), 1, 5)) * -1

    imgs = imgs.permute(0, 3, 1, 2)

    return {'img': imgs, 'annot': annot_padded, 'scale': scales}

class EfficientDetBackbone(nn.Module):
    """Stand-in: a strided conv stem and per-location regression / classification heads."""
    def __init__(self, num_classes=4, num_anchors=9):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, stride=4, padding=1), nn.ReLU(),
                                  nn.Conv2d(16, 32, 3, stride=4, padding=1), nn.ReLU())
        self.regressor = nn.Conv2d(32, num_anchors * 4, 3, padding=1)
        self.classifier = nn.Conv2d(32, num_anchors * num_classes, 3, padding=1)
        self.num_classes = num_classes

    def forward(self, inputs):
        f = self.stem(inputs)
        b = inputs.shape[0]
        regression = self.regressor(f).permute(0, 2, 3, 1).reshape(b, -1, 4)
        classification = self.classifier(f).permute(0, 2, 3, 1).reshape(b, -1, self.num_classes).sigmoid()
        return f, regression, classification, None

class ModelWithLoss(nn.Module):
    def __init__(self, model, debug=False):
        super().__init__()
        self.model = model

    def forward(self, imgs, annotations, obj_list=None):
        _, regression, classification, anchors = self.model(imgs)
        cls_losses, reg_losses = [], []
        for j in range(imgs.shape[0]):
            bbox_annotation = annotations[j]
            bbox_annotation = bbox_annotation[bbox_annotation[:, 4] != -1]
            targets = torch.zeros_like(classification[j])
            n = bbox_annotation.shape[0]
            targets[:n, bbox_annotation[:, 4].long()] = 1
            cls_losses.append(F.binary_cross_entropy(classification[j].clamp(1e-4, 1 - 1e-4), targets))
            reg_losses.append(F.smooth_l1_loss(regression[j, :n], bbox_annotation[:, :4] / 512))
        return torch.stack(cls_losses).mean(dim=0, keepdim=True), torch.stack(reg_losses).mean(dim=0, keepdim=True)

mean, std = [0.485, 0.456, 0.406], [0.229, 0.224, 0.225]
class Compose:   # torchvision.transforms.Compose
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, sample):
        for t in self.transforms:
            sample = t(sample)
        return sample

training_set = CocoDataset(root_dir='datasets/coco', set='train2017',
                           transform=Compose([Normalizer(mean=mean, std=std),
                                              Augmenter(),
                                              Resizer(512)]))
training_generator = torch.utils.data.DataLoader(training_set, batch_size=4, shuffle=False, collate_fn=collater)
model = ModelWithLoss(EfficientDetBackbone(num_classes=4))
optimizer = torch.optim.AdamW(model.parameters(), 1e-4)
data = next(iter(training_generator))
'''
CELL = '''
imgs = data['img']
annot = data['annot']
optimizer.zero_grad()
cls_loss, reg_loss = model(imgs, annot, obj_list=['a', 'b', 'c', 'd'])
cls_loss = cls_loss.mean()
reg_loss = reg_loss.mean()
loss = cls_loss + reg_loss
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
