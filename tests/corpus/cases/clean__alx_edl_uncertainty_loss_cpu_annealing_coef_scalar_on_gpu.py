"""Evidential deep learning loss (Sensoy et al.) on a GPU: the KL annealing coefficient is a 0-dim CPU tensor multiplied into cuda terms.

Source: https://github.com/dougbrion/pytorch-classification-uncertainty/blob/master/losses.py
`mse_loss` builds `annealing_coef = torch.min(torch.tensor(1.0), torch.tensor(epoch_num / annealing_step))`
without a device and multiplies it into the KL term, while `kl_divergence` creates its uniform Dirichlet
`beta = torch.ones([1, num_classes], device=device)` on the passed device. A 0-dim CPU tensor may meet
cuda tensors, so this runs. Look-alike: device-less `torch.tensor(...)` inside a loss on a GPU model.
Stand-in: the repository's losses with the one-hot targets built on the CPU and moved (as train.py does
with `y.to(device)`), and a small classifier.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

def relu_evidence(y):
    return F.relu(y)

def kl_divergence(alpha, num_classes, device=None):
    beta = torch.ones([1, num_classes], dtype=torch.float32, device=device)
    S_alpha = torch.sum(alpha, dim=1, keepdim=True)
    S_beta = torch.sum(beta, dim=1, keepdim=True)
    lnB = torch.lgamma(S_alpha) - torch.sum(torch.lgamma(alpha), dim=1, keepdim=True)
    lnB_uni = torch.sum(torch.lgamma(beta), dim=1, keepdim=True) - torch.lgamma(S_beta)
    dg0 = torch.digamma(S_alpha)
    dg1 = torch.digamma(alpha)
    return torch.sum((alpha - beta) * (dg1 - dg0), dim=1, keepdim=True) + lnB + lnB_uni

def loglikelihood_loss(y, alpha, device=None):
    S = torch.sum(alpha, dim=1, keepdim=True)
    loglikelihood_err = torch.sum((y - (alpha / S)) ** 2, dim=1, keepdim=True)
    loglikelihood_var = torch.sum(alpha * (S - alpha) / (S * S * (S + 1)), dim=1, keepdim=True)
    return loglikelihood_err + loglikelihood_var

def mse_loss(y, alpha, epoch_num, num_classes, annealing_step, device=None):
    loglikelihood = loglikelihood_loss(y, alpha, device=device)
    annealing_coef = torch.min(torch.tensor(1.0, dtype=torch.float32),
                               torch.tensor(epoch_num / annealing_step, dtype=torch.float32))
    kl_alpha = (alpha - 1) * (1 - y) + 1
    kl_div = annealing_coef * kl_divergence(kl_alpha, num_classes, device=device)
    return loglikelihood + kl_div

def edl_mse_loss(output, target, epoch_num, num_classes, annealing_step, device=None):
    evidence = relu_evidence(output)
    alpha = evidence + 1
    return torch.mean(mse_loss(target, alpha, epoch_num, num_classes, annealing_step, device=device))

def one_hot_embedding(labels, num_classes=10):
    y = torch.eye(num_classes)
    return y[labels]

device = torch.device("cuda:0")
num_classes = 10
model = nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 128), nn.ReLU(), nn.Linear(128, num_classes)).to(device)
inputs = torch.randn(32, 1, 28, 28).to(device)
labels = torch.randint(0, num_classes, (32,))
y = one_hot_embedding(labels, num_classes).to(device)
epoch = 3
'''
CELL = '''
with torch.no_grad():
    outputs = model(inputs)
    loss = edl_mse_loss(outputs, y.float(), epoch, num_classes, 10, device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
