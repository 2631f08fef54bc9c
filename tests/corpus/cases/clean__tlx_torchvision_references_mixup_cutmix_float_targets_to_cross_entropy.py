"""Look-alike: torchvision's classification reference fine-tunes with Mixup/CutMix in the collate_fn, so CrossEntropyLoss gets float one-hot targets.

Source: https://github.com/pytorch/vision/blob/main/references/classification/train.py
With `--mixup-alpha`/`--cutmix-alpha`, `train.py` wraps `default_collate` with
`RandomChoice([RandomMixup(num_classes, ...), RandomCutmix(num_classes, ...)])` (references/
classification/transforms.py), which turns the int64 labels into float one-hot rows
(`one_hot(target, num_classes).to(dtype=batch.dtype)`) and mixes them. `train_one_epoch` then calls
`nn.CrossEntropyLoss(label_smoothing=...)` on these float targets, and `utils.accuracy` reduces 2-D
targets with `target.max(dim=1)[1]`. Float targets for cross-entropy look like the "expected scalar
type Long" bug, but they are class probabilities, which CrossEntropyLoss accepts. Stand-in: a small
pretrained-style ResNet with a new `fc`, RandomMixup/RandomCutmix (without their input checks) and `accuracy` as in the reference
(`RandomChoice` and `F.get_dimensions` written out), one device (dtype case), no backward/step.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import math
import random
import torch
from torch import nn, Tensor
from torch.utils.data.dataloader import default_collate

class RandomMixup(torch.nn.Module):
    def __init__(self, num_classes, p=0.5, alpha=1.0, inplace=False):
        super().__init__()
        self.num_classes, self.p, self.alpha, self.inplace = num_classes, p, alpha, inplace

    def forward(self, batch, target):
        if not self.inplace:
            batch = batch.clone()
            target = target.clone()
        if target.ndim == 1:
            target = torch.nn.functional.one_hot(target, num_classes=self.num_classes).to(dtype=batch.dtype)
        if torch.rand(1).item() >= self.p:
            return batch, target
        batch_rolled = batch.roll(1, 0)
        target_rolled = target.roll(1, 0)
        lambda_param = float(torch._sample_dirichlet(torch.tensor([self.alpha, self.alpha]))[0])
        batch_rolled.mul_(1.0 - lambda_param)
        batch.mul_(lambda_param).add_(batch_rolled)
        target_rolled.mul_(1.0 - lambda_param)
        target.mul_(lambda_param).add_(target_rolled)
        return batch, target

class RandomCutmix(torch.nn.Module):
    def __init__(self, num_classes, p=0.5, alpha=1.0, inplace=False):
        super().__init__()
        self.num_classes, self.p, self.alpha, self.inplace = num_classes, p, alpha, inplace

    def forward(self, batch, target):
        if not self.inplace:
            batch = batch.clone()
            target = target.clone()
        if target.ndim == 1:
            target = torch.nn.functional.one_hot(target, num_classes=self.num_classes).to(dtype=batch.dtype)
        if torch.rand(1).item() >= self.p:
            return batch, target
        batch_rolled = batch.roll(1, 0)
        target_rolled = target.roll(1, 0)
        lambda_param = float(torch._sample_dirichlet(torch.tensor([self.alpha, self.alpha]))[0])
        H, W = batch.shape[-2:]                      # F.get_dimensions(batch)
        r_x = torch.randint(W, (1,))
        r_y = torch.randint(H, (1,))
        r = 0.5 * math.sqrt(1.0 - lambda_param)
        r_w_half = int(r * W)
        r_h_half = int(r * H)
        x1 = int(torch.clamp(r_x - r_w_half, min=0))
        y1 = int(torch.clamp(r_y - r_h_half, min=0))
        x2 = int(torch.clamp(r_x + r_w_half, max=W))
        y2 = int(torch.clamp(r_y + r_h_half, max=H))
        batch[:, :, y1:y2, x1:x2] = batch_rolled[:, :, y1:y2, x1:x2]
        lambda_param = float(1.0 - (x2 - x1) * (y2 - y1) / (W * H))
        target_rolled.mul_(1.0 - lambda_param)
        target.mul_(lambda_param).add_(target_rolled)
        return batch, target

class RandomChoice:                                  # torchvision.transforms.RandomChoice
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, *args):
        return random.choice(self.transforms)(*args)

def accuracy(output, target, topk=(1,)):             # references/classification/utils.py
    with torch.inference_mode():
        maxk = max(topk)
        batch_size = target.size(0)
        if target.ndim == 2:
            target = target.max(dim=1)[1]
        _, pred = output.topk(maxk, 1, True, True)
        pred = pred.t()
        correct = pred.eq(target[None])
        res = []
        for k in topk:
            correct_k = correct[:k].flatten().sum(dtype=torch.float32)
            res.append(correct_k * (100.0 / batch_size))
        return res

class ResNet(nn.Module):                             # torchvision resnet18(pretrained=True), reduced
    def __init__(self, num_classes=1000):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.relu = nn.ReLU(inplace=True)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        return self.fc(torch.flatten(self.avgpool(self.relu(self.bn1(self.conv1(x)))), 1))

num_classes = 10
dataset = [(torch.rand(3, 32, 32), random.randrange(num_classes)) for _ in range(16)]
mixup_transforms = [RandomMixup(num_classes, p=1.0, alpha=0.2), RandomCutmix(num_classes, p=1.0, alpha=1.0)]
mixupcutmix = RandomChoice(mixup_transforms)
collate_fn = lambda batch: mixupcutmix(*default_collate(batch))  # noqa: E731
data_loader = torch.utils.data.DataLoader(dataset, batch_size=8, shuffle=True, collate_fn=collate_fn)

device = torch.device("cpu")
model = ResNet()
model.fc = nn.Linear(model.fc.in_features, num_classes)
model.to(device)
criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4)
'''
CELL = '''
model.train()
for i, (image, target) in enumerate(data_loader):
    image, target = image.to(device), target.to(device)
    output = model(image)
    optimizer.zero_grad()
    loss = criterion(output, target)
    acc1, acc5 = accuracy(output, target, topk=(1, 5))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
