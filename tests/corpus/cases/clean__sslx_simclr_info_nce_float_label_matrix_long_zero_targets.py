"""Look-alike: SimCLR's `info_nce_loss` turns a float label matrix into boolean masks and returns all-zero long targets.

Source: https://github.com/sthalles/SimCLR/blob/master/simclr.py
`SimCLR.info_nce_loss` builds `labels = (labels.unsqueeze(0) == labels.unsqueeze(1)).float()` and a
`torch.eye(..., dtype=torch.bool)` mask on the CPU and moves both with `.to(self.args.device)`, uses
`labels.bool()` to pick the positives out of the similarity matrix, and hands the criterion
`torch.zeros(logits.shape[0], dtype=torch.long)` targets; under `autocast(enabled=args.fp16_precision)`
the logits are reduced precision while the targets are long. Float labels, a float/bool mix and
half-precision logits all look like dtype bugs; none is. Stand-in: the `SimCLR` trainer class with a
small linear encoder, the device set to the CPU, and CPU autocast in bfloat16 for the fp16 autocast.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
from types import SimpleNamespace
import torch
import torch.nn as nn
import torch.nn.functional as F

class SimCLR(object):
    def __init__(self, *args, **kwargs):
        self.args = kwargs['args']
        self.model = kwargs['model'].to(self.args.device)
        self.optimizer = kwargs['optimizer']
        self.criterion = torch.nn.CrossEntropyLoss().to(self.args.device)

    def info_nce_loss(self, features):
        labels = torch.cat([torch.arange(self.args.batch_size) for i in range(self.args.n_views)], dim=0)
        labels = (labels.unsqueeze(0) == labels.unsqueeze(1)).float()
        labels = labels.to(self.args.device)
        features = F.normalize(features, dim=1)
        similarity_matrix = torch.matmul(features, features.T)
        mask = torch.eye(labels.shape[0], dtype=torch.bool).to(self.args.device)
        labels = labels[~mask].view(labels.shape[0], -1)
        similarity_matrix = similarity_matrix[~mask].view(similarity_matrix.shape[0], -1)
        positives = similarity_matrix[labels.bool()].view(labels.shape[0], -1)
        negatives = similarity_matrix[~labels.bool()].view(similarity_matrix.shape[0], -1)
        logits = torch.cat([positives, negatives], dim=1)
        labels = torch.zeros(logits.shape[0], dtype=torch.long).to(self.args.device)
        logits = logits / self.args.temperature
        return logits, labels

args = SimpleNamespace(device=torch.device("cpu"), batch_size=8, n_views=2, temperature=0.07, fp16_precision=True)
model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 128), nn.ReLU(), nn.Linear(128, 64))   # ResNetSimCLR
optimizer = torch.optim.Adam(model.parameters(), 3e-4)
simclr = SimCLR(model=model, optimizer=optimizer, args=args)
images = [torch.rand(8, 3, 32, 32), torch.rand(8, 3, 32, 32)]      # n_views augmented views
'''
CELL = '''
images = torch.cat(images, dim=0)
images = images.to(args.device)
with torch.autocast("cpu", dtype=torch.bfloat16, enabled=args.fp16_precision):
    features = simclr.model(images)
    logits, labels = simclr.info_nce_loss(features)
    loss = simclr.criterion(logits, labels)
optimizer.zero_grad()
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
