"""Look-alike: Google Landmark Recognition 2020 3rd place `ArcFaceLossAdaptiveMargin` mixes float64 NumPy margins, int64 labels and mixed-precision logits, and casts every one of them before use.

Source: https://github.com/haqishen/Google-Landmark-Recognition-2020-3rd-Place-Solution/blob/a7947ff091662909ac32aa7fad1b4be5f4185122/models.py
In the Kaggle GLR 2020 3rd place code the per-class margins are a float64 NumPy array
(`(tmp - tmp.min()) / (tmp.max() - tmp.min()) * 0.45 + 0.05`), indexed with `labels.cpu().numpy()`;
the loss turns them into tensors with `torch.from_numpy(np.cos(ms)).float().cuda()`, one-hots the
int64 labels with `F.one_hot(labels, out_dim).float()` and casts the (apex O1, half) logits with
`logits.float()` before `DenseCrossEntropy`, which casts both sides to float again. Nothing of
another dtype reaches an op. Stand-in: apex `amp` O1 played by `torch.autocast("cpu", bfloat16)`
(the subcenter ArcFace head's `F.linear` comes out in reduced precision); the geffnet backbone
reduced to a linear feature layer; SIM cpu (one device), so `.cuda()` is written `.to(device)`.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import math
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class DenseCrossEntropy(nn.Module):
    def forward(self, x, target):
        x = x.float()
        target = target.float()
        logprobs = torch.nn.functional.log_softmax(x, dim=-1)

        loss = -logprobs * target
        loss = loss.sum(-1)
        return loss.mean()


class ArcMarginProduct_subcenter(nn.Module):
    def __init__(self, in_features, out_features, k=3):
        super().__init__()
        self.weight = nn.Parameter(torch.FloatTensor(out_features*k, in_features))
        self.reset_parameters()
        self.k = k
        self.out_features = out_features

    def reset_parameters(self):
        stdv = 1. / math.sqrt(self.weight.size(1))
        self.weight.data.uniform_(-stdv, stdv)

    def forward(self, features):
        cosine_all = F.linear(F.normalize(features), F.normalize(self.weight))
        cosine_all = cosine_all.view(-1, self.out_features, self.k)
        cosine, _ = torch.max(cosine_all, dim=2)
        return cosine


class ArcFaceLossAdaptiveMargin(nn.modules.Module):
    def __init__(self, margins, s=30.0):
        super().__init__()
        self.crit = DenseCrossEntropy()
        self.s = s
        self.margins = margins

    def forward(self, logits, labels, out_dim):
        ms = []
        ms = self.margins[labels.cpu().numpy()]
        cos_m = torch.from_numpy(np.cos(ms)).float().to(device)
        sin_m = torch.from_numpy(np.sin(ms)).float().to(device)
        th = torch.from_numpy(np.cos(math.pi - ms)).float().to(device)
        mm = torch.from_numpy(np.sin(math.pi - ms) * ms).float().to(device)
        labels = F.one_hot(labels, out_dim).float()
        logits = logits.float()
        cosine = logits
        sine = torch.sqrt(1.0 - torch.pow(cosine, 2))
        phi = cosine * cos_m.view(-1,1) - sine * sin_m.view(-1,1)
        phi = torch.where(cosine > th.view(-1,1), phi, cosine - mm.view(-1,1))
        output = (labels * phi) + ((1.0 - labels) * cosine)
        output *= self.s
        loss = self.crit(output, labels)
        return loss


class Effnet_Landmark(nn.Module):
    def __init__(self, enet_type, out_dim):
        super(Effnet_Landmark, self).__init__()
        self.enet = nn.Sequential(nn.Flatten(), nn.Linear(3 * 16 * 16, 64))   # geffnet backbone stand-in
        self.feat = nn.Linear(64, 512)
        self.swish = nn.SiLU()
        self.metric_classify = ArcMarginProduct_subcenter(512, out_dim)

    def extract(self, x):
        return self.enet(x)

    def forward(self, x):
        x = self.extract(x)
        logits_m = self.metric_classify(self.swish(self.feat(x)))
        return logits_m


device = torch.device('cpu')
out_dim = 50
rng = np.random.default_rng(0)
counts = rng.integers(1, 200, out_dim)                              # landmark_id value_counts()
tmp = np.sqrt(1 / np.sqrt(counts))
margins = (tmp - tmp.min()) / (tmp.max() - tmp.min()) * 0.45 + 0.05   # float64

model = Effnet_Landmark('tf_efficientnet_b7_ns', out_dim=out_dim).to(device)

def criterion(logits_m, target):
    arc = ArcFaceLossAdaptiveMargin(margins=margins, s=80)
    loss_m = arc(logits_m, target, out_dim)
    return loss_m

data = torch.randn(8, 3, 16, 16)
target = torch.randint(0, out_dim, (8,))
'''
CELL = '''
data, target = data.to(device), target.to(device)
with torch.autocast("cpu", dtype=torch.bfloat16):    # apex amp opt_level O1
    logits_m = model(data)
    loss = criterion(logits_m, target)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
