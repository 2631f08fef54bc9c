"""Look-alike: pytorch-metric-learning losses take the loader's CPU labels with CUDA embeddings.

Source: https://github.com/KevinMusgrave/pytorch-metric-learning/blob/master/src/pytorch_metric_learning/losses/base_metric_loss_function.py
The library's examples pass `labels` straight from the DataLoader, on the CPU, next to embeddings
on the GPU: `BaseMetricLossFunction.forward` sends them to the embeddings' device itself
(`labels = c_f.to_device(labels, embeddings)`) before `compute_loss` builds its one-hot masks.
The loss module, which holds the proxies, was moved with `loss_func.to(device)` as the docs say
(issue #139). Stand-in: those pieces of the library and ProxyAnchorLoss (no miner, no reducer; the
count of proxies with positives taken without `nonzero`).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

def to_device(x, tensor=None, device=None, dtype=None):
    dv = device if device is not None else tensor.device
    if x.device != dv:
        x = x.to(dv)
    if dtype is not None and x.dtype != dtype:
        x = x.type(dtype)
    return x

def logsumexp(x, keep_mask=None, add_one=True, dim=1):
    max_vals, _ = torch.max(x, dim=dim, keepdim=True)
    exp = torch.exp(x - max_vals)
    if keep_mask is not None:
        exp = exp * keep_mask
    inside_log = torch.sum(exp, dim=dim, keepdim=True)
    if add_one:
        inside_log = inside_log + torch.exp(-max_vals)
    return torch.log(inside_log) + max_vals

class BaseMetricLossFunction(nn.Module):
    def forward(self, embeddings, labels=None, indices_tuple=None):
        if labels is not None:
            labels = to_device(labels, embeddings)
        return self.compute_loss(embeddings, labels, indices_tuple)

class ProxyAnchorLoss(BaseMetricLossFunction):
    def __init__(self, num_classes, embedding_size, margin=0.1, alpha=32):
        super().__init__()
        self.proxies = torch.nn.Parameter(torch.randn(num_classes, embedding_size))
        torch.nn.init.kaiming_normal_(self.proxies, mode="fan_out")
        self.num_classes, self.margin, self.alpha = num_classes, margin, alpha

    def compute_loss(self, embeddings, labels, indices_tuple):
        dtype = embeddings.dtype
        cos = torch.nn.functional.normalize(embeddings, dim=1) @ torch.nn.functional.normalize(self.proxies, dim=1).t()
        pos_mask = torch.nn.functional.one_hot(labels, self.num_classes).to(dtype)
        neg_mask = 1 - pos_mask
        num_pos_proxies = (torch.sum(pos_mask, dim=0) != 0).sum()
        pos_term = logsumexp(-self.alpha * (cos - self.margin), keep_mask=pos_mask, add_one=True, dim=0)
        neg_term = logsumexp(self.alpha * (cos + self.margin), keep_mask=neg_mask, add_one=True, dim=0)
        return torch.sum(pos_term) / num_pos_proxies + torch.sum(neg_term) / self.num_classes

device = torch.device("cuda:0")
num_classes, embedding_size = 10, 64
trunk = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten()).to(device)
embedder = nn.Linear(16, embedding_size).to(device)
loss_func = ProxyAnchorLoss(num_classes=num_classes, embedding_size=embedding_size).to(device)
loss_optimizer = torch.optim.SGD(loss_func.parameters(), lr=0.01)
data = torch.randn(32, 3, 32, 32)
labels = torch.randint(0, num_classes, (32,))                                   # CPU labels from the loader
'''
CELL = '''
embeddings = embedder(trunk(data.to(device)))
loss = loss_func(embeddings, labels)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
