"""open-metric-learning: the ArcFaceLoss criterion holds a learnable class-weight matrix and was never moved to the GPU.

Source: https://github.com/OML-Team/open-metric-learning/issues/620
"Does arcface support train on gpu?": the model was moved with `model.to(device)` and the batch
with `batch["input_tensors"].to(device)` / `batch["labels"].to(device)`, but
`criterion = ArcFaceLoss(in_features=emb_size, num_classes=labels_amount)` stayed where it was
built, so `criterion(embeddings, labels)` failed on the CPU `weight` Parameter of the loss.
The fix is to move the criterion too (`criterion.to(device)`; OML's ArcFaceLoss is an nn.Module).
Stand-in: OML's ArcFaceLoss (its label assertion and accuracy logging left out, they read values),
a small embedder, one batch; fake cuda runs without autograd, so the backward/step are left out.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

class ArcFaceLoss(nn.Module):
    criterion_name = "arcface"

    def __init__(self, in_features, num_classes, m=0.5, s=64, smoothing_epsilon=0,
                 label2category=None, reduction="mean"):
        super().__init__()
        self.criterion = nn.CrossEntropyLoss(reduction=reduction)
        self.num_classes = num_classes
        self.label2category = None
        self.smoothing_epsilon = smoothing_epsilon
        self.weight = nn.Parameter(torch.FloatTensor(num_classes, in_features))
        nn.init.xavier_uniform_(self.weight)
        self.rescale = s
        self.m = m
        self.cos_m = np.cos(m)
        self.sin_m = np.sin(m)
        self.th = -self.cos_m
        self.mm = self.sin_m * m
        self.last_logs = {}

    def fc(self, x):
        return F.linear(F.normalize(x, p=2), F.normalize(self.weight, p=2))

    def smooth_labels(self, y):
        return F.one_hot(y, self.num_classes).float()

    def forward(self, x, y):
        cos = self.fc(x)
        sin = torch.sqrt(1.0 - torch.pow(cos, 2))
        cos_w_margin = cos * self.cos_m - sin * self.sin_m
        cos_w_margin = torch.where(cos > self.th, cos_w_margin, cos - self.mm)
        ohe = F.one_hot(y, self.num_classes)
        logit = torch.where(ohe.bool(), cos_w_margin, cos) * self.rescale
        return self.criterion(logit, self.smooth_labels(y))

class Embedder(nn.Module):
    def __init__(self, emb_size=128):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.proj = nn.Linear(16, emb_size)

    def forward(self, x):
        return self.proj(self.backbone(x))

device = "cuda:0"
emb_size, labels_amount = 128, 30
model = Embedder(emb_size)
model = model.to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4)
criterion = ArcFaceLoss(in_features=emb_size, num_classes=labels_amount)
batch = {"input_tensors": torch.randn(15, 3, 64, 64), "labels": torch.randint(0, labels_amount, (15,))}
'''
CELL = '''
model.train()
embeddings = model(batch["input_tensors"].to(device))
loss = criterion(embeddings, batch["labels"].to(device))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["criterion"]
FIX = "namespace"
REFERENCE_FIX = '''
criterion = criterion.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
