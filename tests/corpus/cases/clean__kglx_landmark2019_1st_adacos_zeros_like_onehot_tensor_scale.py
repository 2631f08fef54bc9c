"""Look-alike: Google Landmark 2019 1st place `AdaCos` head makes its one-hot with `torch.zeros_like(logits)` and keeps its adaptive scale `self.s` as a plain tensor attribute computed from GPU logits.

Source: https://github.com/lyakaap/Landmark2019-1st-and-3rd-Place-Solution/blob/3fee857dd2b2927ede70c43bffd99b41eb394507/src/modeling/metric_learning.py
The Kaggle Landmark Retrieval 2019 winners' `LandmarkNet(loss_module='adacos')` ends in
`AdaCos.forward(input, label)`: the one-hot target is `torch.zeros_like(logits).scatter_(1, label...)`
(on the logits' device, no `device=` needed), and under `no_grad` the scale is re-estimated as
`self.s = torch.log(B_avg) / torch.cos(torch.min(self.theta_zero * torch.ones_like(theta_med), theta_med))`,
a tensor attribute that is born on the GPU from the batch itself (the first call turns the float
into that tensor). Labels are moved with the images. Stand-in: the pretrainedmodels backbone
reduced to one conv; cirtorch `GeM` kept (its `p` is a Parameter); the steps run in eval mode.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn import Parameter


class GeM(nn.Module):
    def __init__(self, p=3, eps=1e-6):
        super(GeM, self).__init__()
        self.p = Parameter(torch.ones(1) * p)
        self.eps = eps

    def forward(self, x):
        return F.avg_pool2d(x.clamp(min=self.eps).pow(self.p), (x.size(-2), x.size(-1))).pow(1. / self.p)


class AdaCos(nn.Module):
    def __init__(self, in_features, out_features, m=0.50, ls_eps=0, theta_zero=math.pi/4):
        super(AdaCos, self).__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.theta_zero = theta_zero
        self.s = math.log(out_features - 1) / math.cos(theta_zero)
        self.m = m
        self.ls_eps = ls_eps  # label smoothing
        self.weight = Parameter(torch.FloatTensor(out_features, in_features))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, input, label):
        # normalize features
        x = F.normalize(input)
        # normalize weights
        W = F.normalize(self.weight)
        # dot product
        logits = F.linear(x, W)
        # add margin
        theta = torch.acos(torch.clamp(logits, -1.0 + 1e-7, 1.0 - 1e-7))
        target_logits = torch.cos(theta + self.m)
        one_hot = torch.zeros_like(logits)
        one_hot.scatter_(1, label.view(-1, 1).long(), 1)
        if self.ls_eps > 0:
            one_hot = (1 - self.ls_eps) * one_hot + self.ls_eps / self.out_features
        output = logits * (1 - one_hot) + target_logits * one_hot
        # feature re-scale
        with torch.no_grad():
            B_avg = torch.where(one_hot < 1, torch.exp(self.s * logits), torch.zeros_like(logits))
            B_avg = torch.sum(B_avg) / input.size(0)
            theta_med = torch.median(theta)
            self.s = torch.log(B_avg) / torch.cos(torch.min(self.theta_zero * torch.ones_like(theta_med), theta_med))
        output *= self.s

        return output


class LandmarkNet(nn.Module):
    def __init__(self, n_classes, pooling='GeM', fc_dim=64, loss_module='adacos', margin=0.50, theta_zero=0.785):
        super(LandmarkNet, self).__init__()
        # stand-in for nn.Sequential(*list(pretrainedmodels.resnet50().children())[:-2])
        self.backbone = nn.Sequential(nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.ReLU())
        self.pooling = GeM()
        self.use_fc = True
        self.dropout = nn.Dropout(p=0.0)
        self.fc = nn.Linear(32, fc_dim)
        self.bn = nn.BatchNorm1d(fc_dim)
        self.loss_module = loss_module
        self.final = AdaCos(fc_dim, n_classes, m=margin, theta_zero=theta_zero)

    def forward(self, x, label):
        feature = self.extract_feat(x)
        if self.loss_module in ('arcface', 'cosface', 'adacos'):
            logits = self.final(feature, label)
        else:
            logits = self.final(feature)
        return logits

    def extract_feat(self, x):
        batch_size = x.shape[0]
        x = self.backbone(x)
        x = self.pooling(x).view(batch_size, -1)
        if self.use_fc:
            x = self.dropout(x)
            x = self.fc(x)
            x = self.bn(x)
        return x


device = torch.device('cuda:0')
model = LandmarkNet(n_classes=100).to(device)
criterion = nn.CrossEntropyLoss()
model.eval()                      # validation steps (BatchNorm in eval mode)
with torch.no_grad():
    x0, y0 = torch.randn(8, 3, 32, 32).to(device), torch.randint(0, 100, (8,)).to(device)
    model(x0, y0)                 # first step: AdaCos.s becomes a tensor on the GPU
x = torch.randn(8, 3, 32, 32)
y = torch.randint(0, 100, (8,))
'''
CELL = '''
with torch.no_grad():
    x, y = x.to(device), y.to(device)
    outputs = model(x, y)
    loss = criterion(outputs, y)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
