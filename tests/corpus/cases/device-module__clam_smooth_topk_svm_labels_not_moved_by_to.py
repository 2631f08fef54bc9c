"""CLAM with a smooth top-k SVM instance loss moved by `.to(device)`: the loss's `labels` stay on the CPU.

Source: https://github.com/mahmoodlab/MIL-Lab/issues/4
`model.forward(sample_data, label=label, loss_fn=loss_fn, ...)` failed in CLAM's `inst_eval` ->
`self.instance_loss_fn(logits, all_targets)` -> topk `svm.py` -> `delta(y, labels, alpha)` with
"Expected all tensors to be on the same device". The smooth-topk `SmoothTop1SVM` keeps
`self.labels = torch.from_numpy(np.arange(n_classes))` as a plain attribute and moves it only in its
own `cuda()` override, which `Module.to(device)` never calls. Stand-in: CLAM_SB reduced to attention
pooling + instance classifier, the SVM loss to its delta term (`unsqueeze` instead of `[:, None]`).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
from torch import nn

class _SVMLoss(nn.Module):
    def __init__(self, n_classes, alpha):
        super().__init__()
        self.alpha = alpha
        self.n_classes = n_classes
        self.labels = torch.from_numpy(np.arange(n_classes))

    def cuda(self, device=None):
        nn.Module.cuda(self, device)
        self.labels = self.labels.cuda(device)
        return self

def delta(y, labels, alpha):
    return alpha * torch.ne(y.unsqueeze(1), labels.unsqueeze(0)).float()

class SmoothTop1SVM(_SVMLoss):
    def __init__(self, n_classes, alpha=1.0, tau=1.0):
        super().__init__(n_classes, alpha)
        self.tau = tau

    def forward(self, x, y):
        x = x + delta(y, self.labels, self.alpha) - x.gather(1, y.unsqueeze(1))
        return (self.tau * torch.logsumexp(x / self.tau, dim=1)).mean()

class CLAM_SB(nn.Module):
    def __init__(self, in_dim=64, n_classes=2, k_sample=4, instance_loss_fn=None):
        super().__init__()
        self.attention_net = nn.Sequential(nn.Linear(in_dim, 32), nn.Tanh(), nn.Linear(32, 1))
        self.classifiers = nn.Linear(in_dim, n_classes)
        self.instance_classifiers = nn.ModuleList([nn.Linear(in_dim, 2) for _ in range(n_classes)])
        self.k_sample = k_sample
        self.instance_loss_fn = instance_loss_fn

    def inst_eval(self, A, h, classifier):
        top_p_ids = torch.topk(A, self.k_sample)[1]
        top_p = h.index_select(0, top_p_ids)
        p_targets = torch.full((self.k_sample,), 1, device=h.device, dtype=torch.long)
        logits = classifier(top_p)
        return self.instance_loss_fn(logits, p_targets)

    def forward(self, h, label=None, instance_eval=False):
        A = self.attention_net(h).squeeze(1)
        A_soft = torch.softmax(A, dim=0)
        M = A_soft.unsqueeze(0) @ h
        logits = self.classifiers(M)
        results = {}
        if instance_eval:
            results["instance_loss"] = self.inst_eval(A, h, self.instance_classifiers[1])
        return logits, torch.softmax(logits, dim=1), results

device = torch.device("cuda:0")
instance_loss_fn = SmoothTop1SVM(n_classes=2)
model = CLAM_SB(instance_loss_fn=instance_loss_fn)
model.to(device)
sample_data = torch.randn(50, 64).to(device)      # one bag of patch features
label = torch.tensor([1]).to(device)
'''
CELL = '''
logits, Y_prob, results_dict = model(sample_data, label=label, instance_eval=True)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.instance_loss_fn.labels"]
FIX = "namespace"
REFERENCE_FIX = '''
model.instance_loss_fn.labels = model.instance_loss_fn.labels.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
