"""Look-alike: MAML-Pytorch's `Meta` builds its Adam meta-optimizer in `__init__`, before `Meta(args, config).to(device)`, and keeps the weights in ParameterLists.

Source: https://github.com/dragen1860/MAML-Pytorch/blob/master/meta.py
`Meta.__init__` creates `self.net = Learner(config, ...)` and
`self.meta_optim = optim.Adam(self.net.parameters(), lr=self.meta_lr)` on the CPU; `omniglot_train.py`
then does `maml = Meta(args, config).to(device)`. `Module.to()` converts the parameters in place (same
`Parameter` objects), so the optimizer built earlier still points at the GPU weights. `Learner` keeps
its weights in `self.vars = nn.ParameterList()` and the BatchNorm running statistics in
`self.vars_bn = nn.ParameterList()` (requires_grad=False), overrides `parameters()` to return
`self.vars`, and the inner loop passes `fast_weights`, a plain list built from the on-device
gradients and weights. Nothing is stale or left behind.
Stand-in: the repo's `Learner` (conv2d / relu / bn / flatten / linear branches, `==` for its `is`
string tests) and `Meta.forward` without the `.item()` accuracy counting (it returns the query loss),
a 2-conv config with 8 channels, a random 5-way 1-shot batch of 2 tasks instead of OmniglotNShot; the
GPU is simulated by meta, with `.to()` swapping parameters in place as it does on a GPU.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import argparse
import numpy as np
import torch
from torch import nn, optim
from torch.nn import functional as F

torch.__future__.set_swap_module_params_on_conversion(True)   # simulation: .to("meta") keeps Parameter identity, as .to("cuda") does

class Learner(nn.Module):
    def __init__(self, config, imgc, imgsz):
        super(Learner, self).__init__()
        self.config = config
        self.vars = nn.ParameterList()
        self.vars_bn = nn.ParameterList()
        for i, (name, param) in enumerate(self.config):
            if name == 'conv2d':
                w = nn.Parameter(torch.ones(*param[:4]))
                torch.nn.init.kaiming_normal_(w)
                self.vars.append(w)
                self.vars.append(nn.Parameter(torch.zeros(param[0])))
            elif name == 'linear':
                w = nn.Parameter(torch.ones(*param))
                torch.nn.init.kaiming_normal_(w)
                self.vars.append(w)
                self.vars.append(nn.Parameter(torch.zeros(param[0])))
            elif name == 'bn':
                w = nn.Parameter(torch.ones(param[0]))
                self.vars.append(w)
                self.vars.append(nn.Parameter(torch.zeros(param[0])))
                running_mean = nn.Parameter(torch.zeros(param[0]), requires_grad=False)
                running_var = nn.Parameter(torch.ones(param[0]), requires_grad=False)
                self.vars_bn.extend([running_mean, running_var])
            elif name in ['relu', 'flatten']:
                continue
            else:
                raise NotImplementedError

    def forward(self, x, vars=None, bn_training=True):
        if vars is None:
            vars = self.vars
        idx = 0
        bn_idx = 0
        for name, param in self.config:
            if name == 'conv2d':
                w, b = vars[idx], vars[idx + 1]
                x = F.conv2d(x, w, b, stride=param[4], padding=param[5])
                idx += 2
            elif name == 'linear':
                w, b = vars[idx], vars[idx + 1]
                x = F.linear(x, w, b)
                idx += 2
            elif name == 'bn':
                w, b = vars[idx], vars[idx + 1]
                running_mean, running_var = self.vars_bn[bn_idx], self.vars_bn[bn_idx+1]
                x = F.batch_norm(x, running_mean, running_var, weight=w, bias=b, training=bn_training)
                idx += 2
                bn_idx += 2
            elif name == 'flatten':
                x = x.view(x.size(0), -1)
            elif name == 'relu':
                x = F.relu(x, inplace=param[0])
        assert idx == len(vars)
        assert bn_idx == len(self.vars_bn)
        return x

    def parameters(self):
        return self.vars

class Meta(nn.Module):
    def __init__(self, args, config):
        super(Meta, self).__init__()
        self.update_lr = args.update_lr
        self.meta_lr = args.meta_lr
        self.n_way = args.n_way
        self.k_spt = args.k_spt
        self.k_qry = args.k_qry
        self.task_num = args.task_num
        self.update_step = args.update_step
        self.net = Learner(config, args.imgc, args.imgsz)
        self.meta_optim = optim.Adam(self.net.parameters(), lr=self.meta_lr)

    def forward(self, x_spt, y_spt, x_qry, y_qry):
        task_num, setsz, c_, h, w = x_spt.size()
        losses_q = [0 for _ in range(self.update_step + 1)]
        for i in range(task_num):
            logits = self.net(x_spt[i], vars=None, bn_training=True)
            loss = F.cross_entropy(logits, y_spt[i])
            grad = torch.autograd.grad(loss, self.net.parameters())
            fast_weights = list(map(lambda p: p[1] - self.update_lr * p[0], zip(grad, self.net.parameters())))
            with torch.no_grad():
                logits_q = self.net(x_qry[i], self.net.parameters(), bn_training=True)
                losses_q[0] += F.cross_entropy(logits_q, y_qry[i])
            with torch.no_grad():
                logits_q = self.net(x_qry[i], fast_weights, bn_training=True)
                losses_q[1] += F.cross_entropy(logits_q, y_qry[i])
            for k in range(1, self.update_step):
                logits = self.net(x_spt[i], fast_weights, bn_training=True)
                loss = F.cross_entropy(logits, y_spt[i])
                grad = torch.autograd.grad(loss, fast_weights)
                fast_weights = list(map(lambda p: p[1] - self.update_lr * p[0], zip(grad, fast_weights)))
                logits_q = self.net(x_qry[i], fast_weights, bn_training=True)
                loss_q = F.cross_entropy(logits_q, y_qry[i])
                losses_q[k + 1] += loss_q
        loss_q = losses_q[-1] / task_num
        self.meta_optim.zero_grad()
        loss_q.backward()
        self.meta_optim.step()
        return loss_q.detach()

def next_batch(task_num, n_way, k_spt, k_qry, imgsz, rng):      # OmniglotNShot.next(): numpy arrays
    x_spt = rng.rand(task_num, n_way * k_spt, 1, imgsz, imgsz).astype(np.float32)
    y_spt = np.tile(np.repeat(np.arange(n_way), k_spt), (task_num, 1)).astype(np.int64)
    x_qry = rng.rand(task_num, n_way * k_qry, 1, imgsz, imgsz).astype(np.float32)
    y_qry = np.tile(np.repeat(np.arange(n_way), k_qry), (task_num, 1)).astype(np.int64)
    return x_spt, y_spt, x_qry, y_qry

args = argparse.Namespace(n_way=5, k_spt=1, k_qry=3, imgsz=28, imgc=1, task_num=2, meta_lr=1e-3,
                          update_lr=0.4, update_step=2, update_step_test=3)
config = [
    ('conv2d', [8, 1, 3, 3, 2, 0]),
    ('relu', [True]),
    ('bn', [8]),
    ('conv2d', [8, 8, 3, 3, 2, 0]),
    ('relu', [True]),
    ('bn', [8]),
    ('flatten', []),
    ('linear', [args.n_way, 8 * 6 * 6])
]
torch.manual_seed(222)
device = torch.device('meta')   # the GPU ('cuda'), simulated with meta
maml = Meta(args, config).to(device)
rng = np.random.RandomState(222)
'''
CELL = '''
x_spt, y_spt, x_qry, y_qry = next_batch(args.task_num, args.n_way, args.k_spt, args.k_qry, args.imgsz, rng)
x_spt, y_spt, x_qry, y_qry = torch.from_numpy(x_spt).to(device), torch.from_numpy(y_spt).to(device), \\
                             torch.from_numpy(x_qry).to(device), torch.from_numpy(y_qry).to(device)
loss_q = maml(x_spt, y_spt, x_qry, y_qry)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
