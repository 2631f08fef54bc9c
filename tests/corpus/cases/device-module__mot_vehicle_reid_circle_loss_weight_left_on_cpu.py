"""Vehicle ReID baseline (torchreid-style engine) with a CircleLoss built outside the model: its class-proxy `weight` Parameter stays on the CPU while the features are on the GPU.

Source: https://github.com/Xiangyu-CAS/AICity2020-VOC-ReID/issues/1
The user copied the AICity2020 `CircleLoss` into their vehicle-ReID baseline (`vehiclereid/losses/
circle_loss.py`) and got "Expected object of backend CUDA but got backend CPU for argument #2 'mat2'"
at `sim_mat = F.linear(F.normalize(bn_feat), F.normalize(self.weight))`. The maintainer: the second
argument `self.weight` must move to cuda; circle loss here is a head with a parameter, and it was
used outside the model, so `model.cuda()` never converted it (move it to the GPU, or build it into
the model as the classifier).
Stand-in: a small linear backbone with a BNNeck in place of ResNet-50; the user's names kept.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import math
import torch
from torch import nn
import torch.nn.functional as F
from torch.nn import Parameter

class CircleLoss(nn.Module):
    def __init__(self, in_features, num_classes, s=256, m=0.25):
        super(CircleLoss, self).__init__()
        self.weight = Parameter(torch.Tensor(num_classes, in_features))
        self.s = s
        self.m = m
        self._num_classes = num_classes
        self.reset_parameters()

    def reset_parameters(self):
        nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))

    def __call__(self, bn_feat, targets):
        sim_mat = F.linear(F.normalize(bn_feat), F.normalize(self.weight))
        alpha_p = torch.clamp_min(-sim_mat.detach() + 1 + self.m, min=0.)
        alpha_n = torch.clamp_min(sim_mat.detach() + self.m, min=0.)
        delta_p = 1 - self.m
        delta_n = self.m
        s_p = self.s * alpha_p * (sim_mat - delta_p)
        s_n = self.s * alpha_n * (sim_mat - delta_n)
        targets = F.one_hot(targets, num_classes=self._num_classes)
        pred_class_logits = targets * s_p + (1.0 - targets) * s_n
        return pred_class_logits

class ResNet50(nn.Module):
    """Stand-in backbone: returns the BNNeck feature in training mode (the classifier is the circle head)."""
    def __init__(self, feat_dim=64):
        super().__init__()
        self.base = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, feat_dim), nn.ReLU())
        self.bottleneck = nn.BatchNorm1d(feat_dim, track_running_stats=False)

    def forward(self, x):
        return self.bottleneck(self.base(x))

use_gpu = True
model = ResNet50(feat_dim=64)
if use_gpu:
    model = model.to("cuda:0")
model.train()

criterion_circle = CircleLoss(in_features=64, num_classes=576, s=256, m=0.25)
criterion_xent = nn.CrossEntropyLoss()

# one batch from the VeRi-776 train loader (images already moved to the GPU by the engine)
imgs = torch.randn(8, 3, 32, 32, device="cuda:0")
pids = torch.tensor([3, 3, 17, 17, 42, 42, 99, 99], device="cuda:0")
'''
CELL = '''
features = model(imgs)
outputs = criterion_circle(features, pids)
loss = criterion_xent(outputs, pids)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["criterion_circle"]
FIX = "namespace"
REFERENCE_FIX = '''
criterion_circle = criterion_circle.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
