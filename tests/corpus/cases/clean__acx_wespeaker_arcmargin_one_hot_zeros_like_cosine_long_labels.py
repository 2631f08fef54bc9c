"""Look-alike: wespeaker `ArcMarginProduct` builds its one-hot with `torch.zeros_like(cosine)` and scatters long labels moved with the batch.

Source: https://github.com/wenet-e2e/wespeaker (wespeaker/models/projections.py, wespeaker/utils/executor.py)
The AAM-softmax head computes `cosine = F.linear(F.normalize(input), F.normalize(self.weight))`,
`one_hot = torch.zeros_like(cosine)` (so on the embedding's device and dtype) and
`one_hot.scatter_(1, label.view(-1, 1), 1)`; the executor moves `targets = batch['label']` (int64)
and `features = batch['feat'].float()` to the device before `outputs = model(features)` and
`outputs = model.module.projection(embeds, targets)`. The cos/sin margin constants are python floats.
Stand-in: the speaker model reduced to a linear embedding.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn
import torch.nn.functional as F

class ArcMarginProduct(nn.Module):
    def __init__(self, in_features, out_features, scale=32.0, margin=0.2, easy_margin=False):
        super().__init__()
        self.scale, self.margin, self.easy_margin = scale, margin, easy_margin
        self.weight = nn.Parameter(torch.FloatTensor(out_features, in_features))
        nn.init.xavier_uniform_(self.weight)
        self.cos_m = math.cos(margin)
        self.sin_m = math.sin(margin)
        self.th = math.cos(math.pi - margin)
        self.mm = math.sin(math.pi - margin) * margin

    def forward(self, input, label):
        cosine = F.linear(F.normalize(input), F.normalize(self.weight))
        sine = torch.sqrt((1.0 - torch.mul(cosine, cosine)).clamp(0, 1))
        phi = cosine * self.cos_m - sine * self.sin_m
        phi = torch.where((cosine - self.th) > 0, phi, cosine - self.mm)
        one_hot = torch.zeros_like(cosine)
        one_hot.scatter_(1, label.view(-1, 1), 1)
        output = (one_hot * phi) + ((1.0 - one_hot) * cosine)
        return output * self.scale

class SpeakerNet(nn.Module):
    def __init__(self, feat_dim=80, embed_dim=32, num_spks=100):
        super().__init__()
        self.embed = nn.Linear(feat_dim, embed_dim)
        self.projection = ArcMarginProduct(embed_dim, num_spks)

    def forward(self, feats):
        return self.embed(feats).mean(dim=1)

device = torch.device("cuda:0")
model = SpeakerNet().to(device)
criterion = nn.CrossEntropyLoss()
batch = {"key": ["utt%d" % i for i in range(4)],
         "feat": torch.randn(4, 200, 80, dtype=torch.float64),      # from the CPU dataloader
         "label": torch.tensor([3, 17, 42, 99])}
'''
CELL = '''
utts = batch["key"]
targets = batch["label"]
targets = targets.long().to(device)
features = batch["feat"]
features = features.float().to(device)
with torch.no_grad():
    embeds = model(features)
    outputs = model.projection(embeds, targets)
    loss = criterion(outputs, targets)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
