"""pytorch-metric-learning ProxyAnchorLoss on a CUDA trunk: the loss's own `proxies` parameter stays on the CPU.

Source: https://github.com/KevinMusgrave/pytorch-metric-learning/issues/139
"I find a bug in ProxyAnchorLoss. `self.proxies` is defined in Line 14, however, it doesn't move to
the same device as `embeddings` explicitly. An error will raise when I use CUDA." The loss is an
nn.Module holding a `torch.nn.Parameter` of proxies, built on the CPU; the user moved the trunk and
embedder to cuda but not the loss, so `sim_mat(embeddings, proxies)` mixes devices. The maintainer:
call `loss_func.to(device)` (the issue's title). Stand-in: ProxyAnchorLoss as in that version,
reduced (no miner, no reducer; the count of proxies with positives taken without `nonzero`).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
import torch.nn as nn

def sim_mat(x, y=None):
    if y is None:
        y = x
    return torch.matmul(x, y.t())

def logsumexp(x, keep_mask=None, add_one=True, dim=1):
    max_vals, _ = torch.max(x, dim=dim, keepdim=True)
    inside_exp = x - max_vals
    exp = torch.exp(inside_exp)
    if keep_mask is not None:
        exp = exp * keep_mask
    inside_log = torch.sum(exp, dim=dim, keepdim=True)
    if add_one:
        inside_log = inside_log + torch.exp(-max_vals)
    return torch.log(inside_log) + max_vals

class BaseMetricLossFunction(nn.Module):
    def __init__(self, normalize_embeddings=True):
        super().__init__()
        self.normalize_embeddings = normalize_embeddings

    def forward(self, embeddings, labels, indices_tuple=None):
        if self.normalize_embeddings:
            embeddings = torch.nn.functional.normalize(embeddings, p=2, dim=1)
        return self.compute_loss(embeddings, labels, indices_tuple)

class ProxyAnchorLoss(BaseMetricLossFunction):
    def __init__(self, num_classes, embedding_size, margin=0.1, alpha=32, **kwargs):
        super().__init__(**kwargs)
        self.proxies = torch.nn.Parameter(torch.randn(num_classes, embedding_size))
        torch.nn.init.kaiming_normal_(self.proxies, mode='fan_out')
        self.num_classes = num_classes
        self.margin = margin
        self.alpha = alpha

    def compute_loss(self, embeddings, labels, indices_tuple):
        prox = torch.nn.functional.normalize(self.proxies, p=2, dim=1)
        cos = sim_mat(embeddings, prox)
        pos_mask = torch.nn.functional.one_hot(labels, self.num_classes).float()
        neg_mask = 1 - pos_mask
        num_pos_proxies = (torch.sum(pos_mask, dim=0) != 0).sum()
        pos_term = logsumexp(-self.alpha * (cos - self.margin), keep_mask=pos_mask, add_one=True, dim=0)
        neg_term = logsumexp(self.alpha * (cos + self.margin), keep_mask=neg_mask, add_one=True, dim=0)
        return torch.sum(pos_term) / num_pos_proxies + torch.sum(neg_term) / self.num_classes

device = torch.device("cuda:0")
num_classes, embedding_size = 10, 64
trunk = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
embedder = nn.Linear(16, embedding_size)
trunk = trunk.to(device)
embedder = embedder.to(device)
loss_func = ProxyAnchorLoss(num_classes=num_classes, embedding_size=embedding_size)
trunk_optimizer = torch.optim.Adam(trunk.parameters(), lr=1e-5)
embedder_optimizer = torch.optim.Adam(embedder.parameters(), lr=1e-4)
loss_optimizer = torch.optim.Adam(loss_func.parameters(), lr=1e-2)
data = torch.randn(32, 3, 32, 32).to(device)
labels = torch.randint(0, num_classes, (32,)).to(device)
'''
CELL = '''
embeddings = embedder(trunk(data))
loss = loss_func(embeddings, labels)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["loss_func"]
FIX = "namespace"
REFERENCE_FIX = '''
loss_func = loss_func.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
