"""Noised top-k loss on the GPU: the loss module's class-margin buffer `m_list` stays on the CPU while the scores are on cuda.

Source: https://github.com/garcinc/noised-topk/pull/3
The user trains with the imbalanced noised top-k loss (Garcin et al., ICML 2022), which smooths the
top-k with Gaussian noise drawn per call (`Z = torch.randn(n_batch, d, n_sample, device=s.device)`,
already on the scores' device). The per-class margins `m_list` are built with NumPy in `__init__`
and registered as a buffer, so they stay on the CPU unless the criterion itself is moved; the user
got "Expected all tensors to be on the same device, but found at least two devices" and states
"The m_list tensor is by default stored on the CPU. This change will make sure it is on the same
device as the remaining tensors". The loss is the repository's `losses/noised_losses.py`
(`SoftTopK`, `imbalanced_noise_topk_loss`, `ImbalancedNoiseTopKLoss`; `torch.from_numpy` written as
`torch.tensor`, same float64 CPU buffer); the network is a stand-in.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Function


class SoftTopK(Function):
    @staticmethod
    def forward(ctx, x, Z, k, epsilon):
        x = torch.unsqueeze(x, dim=-1)
        noised_x = x + epsilon * Z
        values, indices = torch.topk(noised_x, k=k, dim=1)

        noised_kth_value = values[:, -1, :]
        noised_kth_index = torch.unsqueeze(indices[:, -1, :], dim=1)

        ctx.noised_tensor_size = noised_x.size()
        ctx.save_for_backward(noised_kth_index)
        return torch.mean(noised_kth_value, dim=-1)

    @staticmethod
    def backward(ctx, grad_output):
        indices, = ctx.saved_tensors
        zeros = torch.zeros(ctx.noised_tensor_size, device=indices.device)
        zeros.scatter_(1, indices, 1)
        mean_y_star = torch.mean(zeros, dim=-1)
        return mean_y_star * grad_output[:, None], None, None, None


def imbalanced_noise_topk_loss(s, y, k, m_list, epsilon, softtopk, Z, scale):
    margins_batch = torch.gather(m_list, dim=0, index=y)
    correct_scores = torch.squeeze(torch.gather(s, 1, y[:, None]))
    skp1 = softtopk(s, Z, k + 1, epsilon)
    num = F.relu(scale * (margins_batch + skp1 - correct_scores))
    return torch.mean(num)


class ImbalancedNoiseTopKLoss(nn.Module):
    def __init__(self, k, cls_num_list, exp, n_sample, epsilon, max_m, scale):
        super(ImbalancedNoiseTopKLoss, self).__init__()
        m_list = 1.0 / np.power(cls_num_list, exp)
        m_list = m_list * (max_m / np.max(m_list))
        self.register_buffer("m_list", torch.tensor(m_list))
        self.k = k
        self.n_sample = n_sample
        self.epsilon = epsilon
        self.softtopk = SoftTopK.apply
        self.imbalanced_noise_topk_loss = imbalanced_noise_topk_loss
        self.scale = scale

    def forward(self, s, y):
        d = s.size()[-1]
        n_batch = s.size()[0]
        Z = torch.randn(n_batch, d, self.n_sample, device=s.device)
        return self.imbalanced_noise_topk_loss(s, y, self.k, self.m_list, self.epsilon, self.softtopk, Z, self.scale)


device = torch.device("cuda:0")
cls_num_list = [500, 120, 60, 30, 12]
model = nn.Linear(16, len(cls_num_list)).to(device)
criteria = ImbalancedNoiseTopKLoss(k=2, cls_num_list=cls_num_list, exp=0.25, n_sample=5,
                                   epsilon=0.01, max_m=0.2, scale=50.0)
inputs = torch.randn(8, 16, device=device)
labels = torch.randint(0, len(cls_num_list), (8,), device=device)
'''
CELL = '''
scores = model(inputs)
loss = criteria(scores, labels)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["criteria"]
FIX = "namespace"
REFERENCE_FIX = '''
criteria = criteria.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
