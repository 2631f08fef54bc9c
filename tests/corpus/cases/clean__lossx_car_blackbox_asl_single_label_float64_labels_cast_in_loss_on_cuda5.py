"""Asymmetric single-label loss with label smoothing on `cuda:5`: float64 pandas labels, one-hot built with `zeros_like(inputs)`.

Source: https://github.com/Seeooo-0/Car_blackbox_Collision_/blob/ea1f94f733a1ecdcc20cf55886f55a279e3853c8/main.py
The Dacon car-crash video script trains on `device = torch.device('cuda:5')` with
`criterion = ASLSingleLabel().to(device)`. The `weather_labels` column holds NaN for non-crash rows,
so pandas stores it as float64 and the DataLoader yields float64 label tensors; the loss builds the
one-hot targets with `torch.zeros_like(inputs).scatter_(1, target.long().unsqueeze(1), 1)` (device
and dtype of the logits, index cast to long) and smooths them with `mul(1 - eps).add(eps / C)`.
The loss keeps a Python list `targets_classes = []` until its first call. Look-alike: float64
labels and a non-zero GPU index, all handled; it runs.
Stand-ins: a small 3D-conv classifier for torchvision's `r3d_18` + head, one batch of the loader.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class ASLSingleLabel(nn.Module):
    def __init__(self, gamma_pos=0, gamma_neg=4, eps: float = 0.1, reduction="mean"):
        super(ASLSingleLabel, self).__init__()
        self.eps = eps
        self.logsoftmax = nn.LogSoftmax(dim=-1)
        self.targets_classes = []
        self.gamma_pos = gamma_pos
        self.gamma_neg = gamma_neg
        self.reduction = reduction

    def forward(self, inputs, target):
        num_classes = inputs.size()[-1]
        log_preds = self.logsoftmax(inputs)
        self.targets_classes = torch.zeros_like(inputs).scatter_(1, target.long().unsqueeze(1), 1)
        targets = self.targets_classes
        anti_targets = 1 - targets
        xs_pos = torch.exp(log_preds)
        xs_neg = 1 - xs_pos
        xs_pos = xs_pos * targets
        xs_neg = xs_neg * anti_targets
        asymmetric_w = torch.pow(1 - xs_pos - xs_neg, self.gamma_pos * targets + self.gamma_neg * anti_targets)
        log_preds = log_preds * asymmetric_w
        if self.eps > 0:
            self.targets_classes = self.targets_classes.mul(1 - self.eps).add(self.eps / num_classes)
        loss = - self.targets_classes.mul(log_preds)
        loss = loss.sum(dim=-1)
        if self.reduction == "mean":
            loss = loss.mean()
        return loss

class weather_Model(nn.Module):
    def __init__(self):
        super(weather_Model, self).__init__()
        self.feature_extract = nn.Sequential(nn.Conv3d(3, 8, 3, stride=2, padding=1), nn.ReLU(),
                                             nn.AdaptiveAvgPool3d(1), nn.Flatten(), nn.Linear(8, 400))
        self.weather = nn.Sequential(nn.Linear(400, 200), nn.ReLU(), nn.Linear(200, 3))

    def forward(self, x):
        batch_size = x.size(0)
        x = self.feature_extract(x)
        x = x.view(batch_size, -1)
        return self.weather(x)

device = torch.device("cuda:5")
model = weather_Model()
model.to(device)
criterion = ASLSingleLabel().to(device)
weather_labels = np.array([0.0, 2.0, 1.0, 1.0])            # pandas column with NaN rows dropped: float64
videos = torch.randn(4, 3, 10, 32, 32)                      # CPU batch from the DataLoader
labels = torch.from_numpy(weather_labels)
'''
CELL = '''
videos = videos.to(device)
labels = labels.to(device)
output = model(videos)
loss = criterion(output, labels)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
