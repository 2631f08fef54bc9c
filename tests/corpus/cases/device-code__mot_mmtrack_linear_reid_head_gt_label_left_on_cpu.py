"""mmtracking 1.x ReID training on MOT17: `LinearReIDHead.loss_by_feat` concatenates the data samples' labels on the CPU while the features are on cuda:0.

Source: https://github.com/open-mmlab/mmtracking/issues/901
"Some tensor is not at the same device with other tensor" running the unmodified
`configs/reid/reid_r50_8xb32-6e_mot17train80_test-mot17val20.py` on one GPU. The reporter traced it to
`LinearReIDHead.loss_by_feat`: `gt_label = torch.cat([i.gt_label.label for i in data_samples])` stays
on the CPU (the data preprocessor only moves the images) while `feats` are on the GPU, and fixed it
(commits 7fa2eb9/3232732, "gt_label and feats are not at the same device") by pushing `gt_label` to
the features' cuda device before the triplet and cross-entropy losses.
Stand-in: mmtrack's BaseReID / ReIDDataPreprocessor / LinearReIDHead / TripletLoss with a tiny linear
backbone in place of ResNet-50; the hard-mining loop is written with masks (same values) and the
BatchNorm layers keep no running stats (the fake-cuda simulation cannot update them in place).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class LabelData:
    def __init__(self, label):
        self.label = label

class ReIDDataSample:
    def __init__(self, label):
        self.gt_label = LabelData(torch.tensor([label]))

class ReIDDataPreprocessor(nn.Module):
    """Normalizes the images and moves them to the model's device (the data samples stay as loaded)."""
    def __init__(self, mean, std):
        super().__init__()
        self.register_buffer("mean", torch.tensor(mean).view(-1, 1, 1), persistent=False)
        self.register_buffer("std", torch.tensor(std).view(-1, 1, 1), persistent=False)

    def forward(self, data):
        inputs = data["inputs"].to(self.mean.device).float()
        return {"inputs": (inputs - self.mean) / self.std, "data_samples": data["data_samples"]}

class TripletLoss(nn.Module):
    def __init__(self, margin=0.3, loss_weight=1.0):
        super().__init__()
        self.margin = margin
        self.loss_weight = loss_weight
        self.ranking_loss = nn.MarginRankingLoss(margin=margin)

    def forward(self, inputs, targets):
        n = inputs.size(0)
        dist = torch.pow(inputs, 2).sum(dim=1, keepdim=True).expand(n, n)
        dist = dist + dist.t()
        dist = dist - 2 * inputs @ inputs.t()
        dist = dist.clamp(min=1e-12).sqrt()
        mask = targets.expand(n, n).eq(targets.expand(n, n).t())
        dist_ap = torch.where(mask, dist, torch.zeros_like(dist)).max(dim=1).values
        dist_an = torch.where(mask, torch.full_like(dist, 1e6), dist).min(dim=1).values
        y = torch.ones_like(dist_an)
        return self.loss_weight * self.ranking_loss(dist_an, dist_ap, y)

class FcModule(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.fc = nn.Linear(in_channels, out_channels)
        self.bn = nn.BatchNorm1d(out_channels, track_running_stats=False)

    def forward(self, x):
        return F.relu(self.bn(self.fc(x)))

class LinearReIDHead(nn.Module):
    def __init__(self, num_fcs, in_channels, fc_channels, out_channels, num_classes,
                 loss_cls=True, loss_triplet=True, topk=(1,)):
        super().__init__()
        self.topk = topk
        self.loss_cls = nn.CrossEntropyLoss() if loss_cls else None
        self.loss_triplet = TripletLoss(margin=0.3) if loss_triplet else None
        self.fcs = nn.ModuleList(
            [FcModule(in_channels if i == 0 else fc_channels, fc_channels) for i in range(num_fcs)])
        self.fc_out = nn.Linear(fc_channels if num_fcs else in_channels, out_channels)
        self.bn = nn.BatchNorm1d(out_channels, track_running_stats=False)
        self.classifier = nn.Linear(out_channels, num_classes)

    def forward(self, feats):
        feats = feats[-1]
        for m in self.fcs:
            feats = m(feats)
        return self.fc_out(feats)

    def loss(self, feats, data_samples):
        feats = self(feats)
        return self.loss_by_feat(feats, data_samples)

    def loss_by_feat(self, feats, data_samples):
        losses = dict()
        gt_label = torch.cat([i.gt_label.label for i in data_samples])
        if self.loss_triplet:
            losses["triplet_loss"] = self.loss_triplet(feats, gt_label)
        if self.loss_cls:
            feats_bn = self.bn(feats)
            cls_score = self.classifier(feats_bn)
            losses["ce_loss"] = self.loss_cls(cls_score, gt_label)
        return losses

class GlobalAveragePooling(nn.Module):
    def forward(self, x):
        return (x,)

class TinyBackbone(nn.Module):
    def __init__(self, out_channels=64):
        super().__init__()
        self.body = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 16, out_channels), nn.ReLU())

    def forward(self, x):
        return self.body(x)

class BaseReID(nn.Module):
    def __init__(self, data_preprocessor, backbone, neck, head):
        super().__init__()
        self.data_preprocessor = data_preprocessor
        self.backbone = backbone
        self.neck = neck
        self.head = head

    def extract_feat(self, inputs):
        return self.neck(self.backbone(inputs))

    def loss(self, inputs, data_samples):
        feats = self.extract_feat(inputs)
        return self.head.loss(feats, data_samples)

    def forward(self, inputs, data_samples=None, mode="tensor"):
        if mode == "loss":
            return self.loss(inputs, data_samples)
        return self.extract_feat(inputs)

model = BaseReID(
    data_preprocessor=ReIDDataPreprocessor(mean=[123.675, 116.28, 103.53], std=[58.395, 57.12, 57.375]),
    backbone=TinyBackbone(64),
    neck=GlobalAveragePooling(),
    head=LinearReIDHead(num_fcs=1, in_channels=64, fc_channels=32, out_channels=16, num_classes=8),
)
model.to(torch.device("cuda:0"))
model.train()

# one PK batch from the MOT17 ReID dataloader: 4 identities x 2 crops
pids = [0, 0, 1, 1, 2, 2, 3, 3]
data = {"inputs": torch.randint(0, 256, (8, 3, 32, 16), dtype=torch.uint8),
        "data_samples": [ReIDDataSample(p) for p in pids]}
'''
CELL = '''
batch = model.data_preprocessor(data)
losses = model(**batch, mode="loss")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.head"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        gt_label = torch.cat([i.gt_label.label for i in data_samples])\n",
                  "        gt_label = torch.cat([i.gt_label.label for i in data_samples])\n"
                  "        if feats.is_cuda:\n"
                  "            gt_label = gt_label.to(device=f'cuda:{feats.get_device()}')\n")
CLEAN = False
