"""pycox DeepHitSingle on the GPU: the pairwise rank matrix is built with numpy on the CPU, and torchtuples moves the whole target tuple.

Source: https://github.com/havakv/pycox/blob/master/pycox/models/data.py
`DeepHitDataset.__getitem__` computes `rank_mat = pair_rank_mat(*target)` in numpy for every batch
and returns `tt.tuplefy(input, (idx_durations, events, rank_mat)).to_tensor()`: CPU tensors. The
torchtuples `Model.compute_metrics` moves input and target to `self.device` before the net and the
DeepHit loss (`alpha * nll_pmf + (1 - alpha) * rank_loss_deephit_single`, whose
`_diff_cdf_at_time_i` makes its `ones` on `pmf.device`) run.
Look-alike: a CPU batch with a CPU-built n x n matrix handed to a CUDA model that moves it.
Stand-in: torchtuples `Model.compute_metrics` (device move, net, loss) and the pycox losses; the
`idx_durations.max()` check of `nll_pmf` is left out and `pad_col` appends its zero column with
`torch.zeros(n, 1, device=...)` (the CPU simulation cannot read or slice fake CUDA tensors); the
MLPVanilla net has no BatchNorm (its running-stat update cannot run on fake CUDA).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn


def pad_col(input, val=0, where="end"):
    pad = torch.zeros(input.shape[0], 1, dtype=input.dtype, device=input.device)   # zeros_like(input[:, :1])
    if val != 0:
        pad = pad + val
    return torch.cat([input, pad], dim=1) if where == "end" else torch.cat([pad, input], dim=1)


def pair_rank_mat(idx_durations, events, dtype="float32"):
    idx_durations = idx_durations.reshape(-1)
    events = events.reshape(-1)
    n = len(idx_durations)
    mat = np.zeros((n, n), dtype=dtype)
    for i in range(n):
        if events[i] == 0:
            continue
        for j in range(n):
            if (idx_durations[i] < idx_durations[j]) or (idx_durations[i] == idx_durations[j] and events[j] == 0):
                mat[i, j] = 1
    return mat


def nll_pmf(phi, idx_durations, events, reduction="mean", epsilon=1e-7):
    events = events.view(-1)
    idx_durations = idx_durations.view(-1, 1)
    phi = pad_col(phi)
    gamma = phi.max(1)[0]
    cumsum = phi.sub(gamma.view(-1, 1)).exp().cumsum(1)
    sum_ = cumsum.select(1, -1)
    part1 = phi.gather(1, idx_durations).view(-1).sub(gamma).mul(events)
    part2 = - sum_.relu().add(epsilon).log()
    part3 = sum_.sub(cumsum.gather(1, idx_durations).view(-1)).relu().add(epsilon).log().mul(1. - events)
    return (- part1.add(part2).add(part3)).mean()


def _diff_cdf_at_time_i(pmf, y):
    n = pmf.shape[0]
    ones = torch.ones((n, 1), device=pmf.device)
    r = pmf.cumsum(1).matmul(y.transpose(0, 1))
    diag_r = r.diag().view(1, -1)
    r = ones.matmul(diag_r) - r
    return r.transpose(0, 1)


def rank_loss_deephit_single(phi, idx_durations, events, rank_mat, sigma, reduction="mean"):
    idx_durations = idx_durations.view(-1, 1)
    pmf = pad_col(phi).softmax(1)
    y = torch.zeros_like(pmf).scatter(1, idx_durations, 1.)
    r = _diff_cdf_at_time_i(pmf, y)
    loss = rank_mat * torch.exp(-r / sigma)
    return loss.mean(1, keepdim=True).mean()


class DeepHitSingleLoss:
    def __init__(self, alpha=0.2, sigma=0.1):
        self.alpha, self.sigma = alpha, sigma

    def __call__(self, phi, idx_durations, events, rank_mat):
        nll = nll_pmf(phi, idx_durations, events)
        rank_loss = rank_loss_deephit_single(phi, idx_durations, events, rank_mat, self.sigma)
        return self.alpha * nll + (1. - self.alpha) * rank_loss


class DeepHitSingle:
    """Stand-in for pycox.models.DeepHitSingle on torchtuples.Model."""

    def __init__(self, net, optimizer=None, device=None, alpha=0.2, sigma=0.1, duration_index=None):
        self.device = torch.device(device)
        self.net = net.to(self.device)
        self.loss = DeepHitSingleLoss(alpha, sigma)
        self.duration_index = duration_index

    def compute_metrics(self, data):
        input, target = data
        input = input.to(self.device)
        target = tuple(t.to(self.device) for t in target)
        out = self.net(input)
        return {"loss": self.loss(out, *target)}


def deephit_batch(x, idx_durations, events):
    """What DeepHitDataset.__getitem__ returns for one batch (numpy rank matrix, CPU tensors)."""
    rank_mat = pair_rank_mat(idx_durations, events)
    target = (torch.from_numpy(idx_durations), torch.from_numpy(events), torch.from_numpy(rank_mat))
    return torch.from_numpy(x), target


num_durations = 10
net = nn.Sequential(nn.Linear(9, 32), nn.ReLU(), nn.Dropout(0.1), nn.Linear(32, num_durations))
model = DeepHitSingle(net, device="cuda:0", alpha=0.2, sigma=0.1)

rng = np.random.default_rng(0)
x_batch = rng.standard_normal((64, 9)).astype("float32")          # METABRIC-like covariates
idx_durations = rng.integers(0, num_durations, 64).astype("int64")  # labtrans.transform(...)
events = rng.integers(0, 2, 64).astype("float32")
batch = deephit_batch(x_batch, idx_durations, events)
'''
CELL = '''
model.net.train()
metrics = model.compute_metrics(batch)
loss = metrics["loss"]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
