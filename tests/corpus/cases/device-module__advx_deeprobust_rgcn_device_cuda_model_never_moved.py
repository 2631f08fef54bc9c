"""DeepRobust RGCN built with `device='cuda'` but never moved: `fit` puts the graph on the GPU, the Gaussian-conv weights stay on the CPU.

Source: https://github.com/DSE-MSU/DeepRobust/issues/67
Training the robust GCN defense with `RGCN(nnodes=..., nfeat=..., nhid=16, nclass=..., dropout=0.5,
device='cuda')` and `rgcn.fit(features, adj, labels, idx_train)` raised "Expected all tensors to be
on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for
argument mat2 in method wrapper_mm)". The `device` argument only tells `fit` where to send the
adjacency, features and labels; the module itself must be moved. The reporter: "I forgot to add
that `model = model.to(device)`". Stand-in: DeepRobust's `GGCL_F`, `GGCL_D`, `RGCN` and
`utils.to_tensor`, with dense numpy inputs (the user's scipy matrices are `.todense()`d inside
`fit`); `device='cuda'` is written "cuda:0" (the simulator has no current device). Simulator limits:
training steps set `p.grad = ones_like(p)` instead of `backward()`, `fit` does not re-draw the
initial weights (`_initialize`, an in-place random init), the `D_power[isinf] = 0` fill is a
`torch.where`, `output[idx_train]` an `index_select`, and distribution argument checks are off.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import math
import numpy as np
import torch
import torch.nn.functional as F
import torch.optim as optim
from torch.nn.parameter import Parameter
from torch.nn.modules.module import Module
from torch.distributions.multivariate_normal import MultivariateNormal

torch.distributions.Distribution.set_default_validate_args(False)

def to_tensor(adj, features, labels=None, device="cpu"):
    adj = torch.FloatTensor(np.asarray(adj))
    features = torch.FloatTensor(np.asarray(features))
    if labels is None:
        return adj.to(device), features.to(device)
    labels = torch.LongTensor(labels)
    return adj.to(device), features.to(device), labels.to(device)

class GGCL_F(Module):
    def __init__(self, in_features, out_features, dropout=0.6):
        super(GGCL_F, self).__init__()
        self.in_features, self.out_features, self.dropout = in_features, out_features, dropout
        self.weight_miu = Parameter(torch.FloatTensor(in_features, out_features))
        self.weight_sigma = Parameter(torch.FloatTensor(in_features, out_features))
        self.reset_parameters()

    def reset_parameters(self):
        torch.nn.init.xavier_uniform_(self.weight_miu)
        torch.nn.init.xavier_uniform_(self.weight_sigma)

    def forward(self, features, adj_norm1, adj_norm2, gamma=1):
        features = F.dropout(features, self.dropout, training=self.training)
        self.miu = F.elu(torch.mm(features, self.weight_miu))
        self.sigma = F.relu(torch.mm(features, self.weight_sigma))
        Att = torch.exp(-gamma * self.sigma)
        miu_out = adj_norm1 @ (self.miu * Att)
        sigma_out = adj_norm2 @ (self.sigma * Att * Att)
        return miu_out, sigma_out

class GGCL_D(Module):
    def __init__(self, in_features, out_features, dropout):
        super(GGCL_D, self).__init__()
        self.in_features, self.out_features, self.dropout = in_features, out_features, dropout
        self.weight_miu = Parameter(torch.FloatTensor(in_features, out_features))
        self.weight_sigma = Parameter(torch.FloatTensor(in_features, out_features))
        self.reset_parameters()

    def reset_parameters(self):
        torch.nn.init.xavier_uniform_(self.weight_miu)
        torch.nn.init.xavier_uniform_(self.weight_sigma)

    def forward(self, miu, sigma, adj_norm1, adj_norm2, gamma=1):
        miu = F.dropout(miu, self.dropout, training=self.training)
        sigma = F.dropout(sigma, self.dropout, training=self.training)
        miu = F.elu(miu @ self.weight_miu)
        sigma = F.relu(sigma @ self.weight_sigma)
        Att = torch.exp(-gamma * sigma)
        mean_out = adj_norm1 @ (miu * Att)
        sigma_out = adj_norm2 @ (sigma * Att * Att)
        return mean_out, sigma_out

class RGCN(Module):
    def __init__(self, nnodes, nfeat, nhid, nclass, gamma=1.0, beta1=5e-4, beta2=5e-4, lr=0.01,
                 dropout=0.6, device="cpu"):
        super(RGCN, self).__init__()
        self.device = device
        self.lr, self.gamma, self.beta1, self.beta2 = lr, gamma, beta1, beta2
        self.nclass = nclass
        self.nhid = nhid // 2
        self.gc1 = GGCL_F(nfeat, nhid, dropout=dropout)
        self.gc2 = GGCL_D(nhid, nclass, dropout=dropout)
        self.dropout = dropout
        self.gaussian = MultivariateNormal(torch.zeros(nnodes, self.nclass),
                                           torch.diag_embed(torch.ones(nnodes, self.nclass)))
        self.adj_norm1, self.adj_norm2 = None, None
        self.features, self.labels = None, None

    def forward(self):
        features = self.features
        miu, sigma = self.gc1(features, self.adj_norm1, self.adj_norm2, self.gamma)
        miu, sigma = self.gc2(miu, sigma, self.adj_norm1, self.adj_norm2, self.gamma)
        output = miu + self.gaussian.sample().to(self.device) * torch.sqrt(sigma + 1e-8)
        return F.log_softmax(output, dim=1)

    def fit(self, features, adj, labels, idx_train, idx_val=None, train_iters=200, verbose=True):
        adj, features, labels = to_tensor(adj, features, labels, device=self.device)
        self.features, self.labels = features, labels
        self.adj_norm1 = self._normalize_adj(adj, power=-1 / 2)
        self.adj_norm2 = self._normalize_adj(adj, power=-1)
        self._train_without_val(labels, torch.as_tensor(idx_train).to(self.device), train_iters, verbose)

    def _train_without_val(self, labels, idx_train, train_iters, verbose=True):
        optimizer = optim.Adam(self.parameters(), lr=self.lr)
        self.train()
        for i in range(train_iters):
            optimizer.zero_grad()
            output = self.forward()
            loss_train = self._loss(output.index_select(0, idx_train), labels.index_select(0, idx_train))
            for p in self.parameters():                      # loss_train.backward()
                p.grad = torch.ones_like(p)
            optimizer.step()
        self.eval()
        self.output = self.forward()

    def _loss(self, input, labels):
        loss = F.nll_loss(input, labels)
        miu1, sigma1 = self.gc1.miu, self.gc1.sigma
        kl_loss = 0.5 * (miu1.pow(2) + sigma1 - torch.log(1e-8 + sigma1)).mean(1)
        kl_loss = kl_loss.sum()
        norm2 = torch.norm(self.gc1.weight_miu, 2).pow(2) + torch.norm(self.gc1.weight_sigma, 2).pow(2)
        return loss + self.beta1 * kl_loss + self.beta2 * norm2

    def _normalize_adj(self, adj, power=-1 / 2):
        A = adj + torch.eye(len(adj)).to(self.device)
        D_power = (A.sum(1)).pow(power)
        D_power = torch.where(torch.isinf(D_power), torch.zeros_like(D_power), D_power)
        D_power = torch.diag(D_power)
        return D_power @ A @ D_power

rng = np.random.default_rng(0)
n_nodes, n_feat = 60, 32
adj = (rng.random((n_nodes, n_nodes)) < 0.05).astype(np.float32)
adj = np.maximum(adj, adj.T)
features = (rng.random((n_nodes, n_feat)) < 0.2).astype(np.float32)
labels = rng.integers(0, 4, n_nodes)
idx_train, idx_val, idx_test = np.arange(0, 20), np.arange(20, 40), np.arange(40, 60)
rgcn = RGCN(nnodes=adj.shape[0], nfeat=features.shape[1], nhid=16, nclass=int(labels.max()) + 1,
            dropout=0.5, device="cuda:0")
'''
CELL = '''
rgcn.fit(features, adj, labels, idx_train, train_iters=3, verbose=False)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["rgcn"]
FIX = "namespace"
REFERENCE_FIX = '''
rgcn = rgcn.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
