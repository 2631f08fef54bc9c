"""Look-alike: pytorch-metric-learning's SelfSupervisedLoss makes its pair labels with a bare `torch.arange` (CPU) for GPU embeddings.

Source: https://github.com/KevinMusgrave/pytorch-metric-learning/blob/master/src/pytorch_metric_learning/losses/self_supervised_loss.py
`SelfSupervisedLoss(NTXentLoss())` is PML's SimCLR-style wrapper: `forward(embeddings, ref_emb)`
builds `labels = torch.arange(embeddings.shape[0])` without a device, concatenates the two views
and their labels, and calls the wrapped loss. That looks like the classic "labels on the CPU" bug,
but every PML loss starts with `labels = c_f.to_device(labels, embeddings)`
(BaseMetricLossFunction.forward), so the CPU labels follow the embeddings before any comparison. It
runs. Stand-ins: SelfSupervisedLoss as in the file; NTXentLoss reduced to a dense InfoNCE over the
label mask behind BaseMetricLossFunction's `to_device`; a small projection network for SimCLR views.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

def to_device(x, tensor=None, device=None, dtype=None):
    dv = device if device is not None else tensor.device
    if x.device != dv:
        x = x.to(dv)
    return x

class NTXentLoss(nn.Module):
    """Stand-in: BaseMetricLossFunction.forward + a dense NT-Xent over the same-label mask."""
    def __init__(self, temperature=0.07):
        super().__init__()
        self.temperature = temperature

    def forward(self, embeddings, labels=None, indices_tuple=None, ref_emb=None, ref_labels=None):
        if labels is not None:
            labels = to_device(labels, embeddings)
        if ref_emb is None:
            ref_emb, ref_labels = embeddings, labels
        else:
            ref_labels = to_device(ref_labels, ref_emb)
        return self.compute_loss(embeddings, labels, ref_emb, ref_labels)

    def compute_loss(self, embeddings, labels, ref_emb, ref_labels):
        sim = F.normalize(embeddings, dim=1) @ F.normalize(ref_emb, dim=1).t() / self.temperature
        rows = torch.arange(len(embeddings), device=embeddings.device)
        self_mask = rows.unsqueeze(1) == torch.arange(len(ref_emb), device=embeddings.device).unsqueeze(0)
        pos = (labels.unsqueeze(1) == ref_labels.unsqueeze(0)).logical_and(self_mask.logical_not())
        sim = sim.masked_fill(self_mask, float("-inf"))
        log_prob = sim - torch.logsumexp(sim, dim=1, keepdim=True)
        return -(log_prob.masked_fill(pos.logical_not(), 0.0).sum(1) / pos.sum(1)).mean()

class SelfSupervisedLoss(nn.Module):
    def __init__(self, loss, symmetric=True, **kwargs):
        super().__init__()
        self.loss = loss
        self.symmetric = symmetric

    def forward(self, embeddings, ref_emb):
        labels = torch.arange(embeddings.shape[0])
        if self.symmetric:
            embeddings = torch.cat([embeddings, ref_emb], dim=0)
            labels = torch.cat([labels, labels], dim=0)
            return self.loss(embeddings, labels)
        return self.loss(embeddings=embeddings, labels=labels, ref_emb=ref_emb, ref_labels=labels.clone())

device = torch.device("cuda:0")
model = nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 128), nn.ReLU(), nn.Linear(128, 64)).to(device)
loss_func = SelfSupervisedLoss(NTXentLoss(temperature=0.1))
dataloader = [(torch.randn(16, 3, 32, 32), torch.randn(16, 3, 32, 32))]   # two augmented views
'''
CELL = '''
for view1, view2 in dataloader:
    embeddings = model(view1.to(device))
    augmented = model(view2.to(device))
    loss = loss_func(embeddings, augmented)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
