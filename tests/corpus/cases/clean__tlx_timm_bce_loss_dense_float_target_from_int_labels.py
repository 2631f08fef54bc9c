"""Look-alike: fine-tuning a timm model with `--bce-loss`; integer class labels go straight into timm's BinaryCrossEntropy.

Source: https://github.com/huggingface/pytorch-image-models/blob/main/timm/loss/binary_cross_entropy.py
With `train.py --bce-loss` (and no mixup) the criterion is `BinaryCrossEntropy(smoothing=...)` while the
loader still yields int64 class indices. Long targets for a binary-cross-entropy loss are the usual
"result type Float can't be cast to the desired output type Long" bug, but timm's loss turns them into a
dense float target itself: `target = torch.full((batch_size, num_classes), off_value, device=x.device,
dtype=x.dtype).scatter_(1, target.long().view(-1, 1), on_value)`, on the logits' device and dtype,
before `F.binary_cross_entropy_with_logits`. Stand-in: the loss as in timm, a small pretrained-style
classifier whose head was reset for the new classes, a training step without backward (no autograd in
this simulation) and BatchNorm in eval mode (fake cuda cannot run training-mode batch_norm); GPU
simulated (fake cuda:0).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
from typing import Optional, Union
import torch
import torch.nn as nn
import torch.nn.functional as F

class BinaryCrossEntropy(nn.Module):
    """ BCE with optional one-hot from dense targets, label smoothing, thresholding
    NOTE for experiments comparing CE to BCE /w label smoothing, may remove
    """
    def __init__(
            self,
            smoothing=0.1,
            target_threshold: Optional[float] = None,
            weight: Optional[torch.Tensor] = None,
            reduction: str = 'mean',
            sum_classes: bool = False,
            pos_weight: Optional[Union[torch.Tensor, float]] = None,
    ):
        super(BinaryCrossEntropy, self).__init__()
        assert 0. <= smoothing < 1.0
        if pos_weight is not None:
            if not isinstance(pos_weight, torch.Tensor):
                pos_weight = torch.tensor(pos_weight)
        self.smoothing = smoothing
        self.target_threshold = target_threshold
        self.reduction = 'none' if sum_classes else reduction
        self.sum_classes = sum_classes
        self.register_buffer('weight', weight)
        self.register_buffer('pos_weight', pos_weight)

    def forward(self, x: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
        batch_size = x.shape[0]
        assert batch_size == target.shape[0]
        if target.shape != x.shape:
            # NOTE currently assume smoothing or other label softening is applied upstream if targets are already sparse
            num_classes = x.shape[-1]
            # FIXME should off/on be different for smoothing w/ BCE? Other impl out there differ
            off_value = self.smoothing / num_classes
            on_value = 1. - self.smoothing + off_value
            target = target.long().view(-1, 1)
            target = torch.full(
                (batch_size, num_classes),
                off_value,
                device=x.device, dtype=x.dtype).scatter_(1, target, on_value)
        if self.target_threshold is not None:
            # Make target 0, or 1 if threshold set
            target = target.gt(self.target_threshold).to(dtype=target.dtype)
        loss = F.binary_cross_entropy_with_logits(
            x, target,
            self.weight,
            pos_weight=self.pos_weight,
            reduction=self.reduction,
        )
        if self.sum_classes:
            loss = loss.sum(-1).mean()
        return loss

class ResNet(nn.Module):                             # timm.create_model('resnet50', pretrained=True), reduced
    def __init__(self, num_classes=1000):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(16)
        self.act1 = nn.ReLU(inplace=True)
        self.global_pool = nn.AdaptiveAvgPool2d(1)
        self.num_features = 16
        self.fc = nn.Linear(16, num_classes)

    def reset_classifier(self, num_classes):
        self.fc = nn.Linear(self.num_features, num_classes)

    def forward(self, x):
        return self.fc(self.global_pool(self.act1(self.bn1(self.conv1(x)))).flatten(1))

device = torch.device("cuda:0")
model = ResNet()
model.reset_classifier(num_classes=37)
model.to(device=device)
model.eval()                                         # simulation only: fake cuda cannot run training-mode batch_norm
train_loss_fn = BinaryCrossEntropy(smoothing=0.1, target_threshold=0.2).to(device=device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.05)
loader_train = [(torch.randn(4, 3, 32, 32), torch.randint(0, 37, (4,))) for _ in range(2)]
'''
CELL = '''
for batch_idx, (input, target) in enumerate(loader_train):
    input, target = input.to(device), target.to(device)
    output = model(input)
    loss = train_loss_fn(output, target)
    optimizer.zero_grad()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
