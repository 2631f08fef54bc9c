"""MAML on Omniglot: the task labels come out of numpy as int32 on Windows and reach F.cross_entropy.

Source: https://github.com/dragen1860/MAML-Pytorch/issues/45
On Windows, `omniglot_train.py` failed in `Meta.forward` at `loss = F.cross_entropy(logits, y_spt[i])`
("Expected object of scalar type Long but got scalar type Int for argument #2 'target'"; today:
"expected target dtype to be Long or Byte, but got Int"). `OmniglotNShot` builds the labels with
`np.array(...).astype(np.int)`, which is int32 on Windows, and `torch.from_numpy` keeps that. The
fix given in the thread: `accs = maml(x_spt, y_spt.long(), x_qry, y_qry.long())`. Stand-in: a small
functional learner and a one-step `Meta` keeping the support/query loop (no Omniglot data).
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn, optim

class Learner(nn.Module):
    def __init__(self, in_dim=28 * 28, n_way=5):
        super().__init__()
        self.vars = nn.ParameterList([nn.Parameter(torch.randn(n_way, in_dim) * 0.01),
                                      nn.Parameter(torch.zeros(n_way))])

    def forward(self, x, vars=None, bn_training=True):
        w, b = self.vars if vars is None else vars
        return F.linear(x.view(x.size(0), -1), w, b)

    def parameters(self, recurse=True):
        return self.vars

class Meta(nn.Module):
    def __init__(self, update_lr=0.4, meta_lr=1e-3):
        super().__init__()
        self.update_lr = update_lr
        self.net = Learner()
        self.meta_optim = optim.Adam(self.net.parameters(), lr=meta_lr)

    def forward(self, x_spt, y_spt, x_qry, y_qry):
        task_num = x_spt.size(0)
        loss_q = 0
        for i in range(task_num):
            logits = self.net(x_spt[i], vars=None, bn_training=True)
            loss = F.cross_entropy(logits, y_spt[i])
            grad = torch.autograd.grad(loss, self.net.parameters())
            fast_weights = list(map(lambda p: p[1] - self.update_lr * p[0], zip(grad, self.net.parameters())))
            logits_q = self.net(x_qry[i], fast_weights, bn_training=True)
            loss_q = loss_q + F.cross_entropy(logits_q, y_qry[i])
        loss_q = loss_q / task_num
        self.meta_optim.zero_grad()
        loss_q.backward()
        self.meta_optim.step()
        return loss_q.item()

device = torch.device("cpu")
maml = Meta().to(device)

# db_train.next(): OmniglotNShot builds labels with .astype(np.int), i.e. int32 on Windows
x_spt = np.random.rand(4, 5, 1, 28, 28).astype(np.float32)
y_spt = np.tile(np.arange(5), (4, 1)).astype(np.int32)
x_qry = np.random.rand(4, 15, 1, 28, 28).astype(np.float32)
y_qry = np.tile(np.repeat(np.arange(5), 3), (4, 1)).astype(np.int32)
x_spt, y_spt, x_qry, y_qry = torch.from_numpy(x_spt).to(device), torch.from_numpy(y_spt).to(device), \\
                             torch.from_numpy(x_qry).to(device), torch.from_numpy(y_qry).to(device)
'''
CELL = '''
accs = maml(x_spt, y_spt, x_qry, y_qry)
'''
EXPECT_ERROR = "expected target dtype to be Long or Byte, but got Int"
CULPRITS = ["y_spt", "y_qry"]
FIX = "namespace"
REFERENCE_FIX = '''
y_spt, y_qry = y_spt.long(), y_qry.long()
'''
REFERENCE_EDIT = None
CLEAN = False
