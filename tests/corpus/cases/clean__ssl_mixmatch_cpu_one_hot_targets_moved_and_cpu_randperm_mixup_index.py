"""Look-alike: MixMatch builds the one-hot labels on the CPU, moves the batch, and mixes it with a CPU `randperm`.

Source: https://github.com/YU1ut/MixMatch-pytorch/blob/master/train.py
`train` turns the loader's labels into one-hot targets with `torch.zeros(batch_size, 10).scatter_(...)`
on the CPU, then moves `inputs_x`, `targets_x`, `inputs_u`, `inputs_u2` to the GPU before guessing
the unlabeled labels with the model; the MixUp permutation `idx = torch.randperm(...)` stays on the
CPU and indexes the GPU batch (CPU indices are allowed), and `l` comes from `np.random.beta` as a
Python float. Everything the model and the loss touch is on the device: nothing to report.
Stand-in: a tiny CNN, `SemiLoss`, `interleave` and `linear_rampup` as in the repo, one step of the
loop body with the batches already drawn; the meta device plays the GPU (autograd is needed).
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import types
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

args = types.SimpleNamespace(T=0.5, alpha=0.75, lambda_u=75, train_iteration=1024, epochs=1024)
use_cuda = True

def linear_rampup(current, rampup_length=args.epochs):
    if rampup_length == 0:
        return 1.0
    current = np.clip(current / rampup_length, 0.0, 1.0)
    return float(current)

class SemiLoss(object):
    def __call__(self, outputs_x, targets_x, outputs_u, targets_u, epoch):
        probs_u = torch.softmax(outputs_u, dim=1)
        Lx = -torch.mean(torch.sum(F.log_softmax(outputs_x, dim=1) * targets_x, dim=1))
        Lu = torch.mean((probs_u - targets_u)**2)
        return Lx, Lu, args.lambda_u * linear_rampup(epoch)

def interleave_offsets(batch, nu):
    groups = [batch // (nu + 1)] * (nu + 1)
    for x in range(batch - sum(groups)):
        groups[-x - 1] += 1
    offsets = [0]
    for g in groups:
        offsets.append(offsets[-1] + g)
    assert offsets[-1] == batch
    return offsets

def interleave(xy, batch):
    nu = len(xy) - 1
    offsets = interleave_offsets(batch, nu)
    xy = [[v[offsets[p]:offsets[p + 1]] for p in range(nu + 1)] for v in xy]
    for i in range(1, nu + 1):
        xy[0][i], xy[i][i] = xy[i][i], xy[0][i]
    return [torch.cat(v, dim=0) for v in xy]

model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10))
model = model.to("meta")          # the repo: model = model.cuda()
train_criterion = SemiLoss()
model.train()

# one draw from labeled_trainloader / unlabeled_trainloader (CPU tensors)
inputs_x, targets_x = torch.randn(4, 3, 8, 8), torch.randint(0, 10, (4,))
inputs_u, inputs_u2 = torch.randn(4, 3, 8, 8), torch.randn(4, 3, 8, 8)
epoch, batch_idx = 0, 0
'''
CELL = '''
batch_size = inputs_x.size(0)

# Transform label to one-hot
targets_x = torch.zeros(batch_size, 10).scatter_(1, targets_x.view(-1,1).long(), 1)

if use_cuda:
    inputs_x, targets_x = inputs_x.to("meta"), targets_x.to("meta")   # .cuda(), .cuda(non_blocking=True)
    inputs_u = inputs_u.to("meta")
    inputs_u2 = inputs_u2.to("meta")

with torch.no_grad():
    # compute guessed labels of unlabel samples
    outputs_u = model(inputs_u)
    outputs_u2 = model(inputs_u2)
    p = (torch.softmax(outputs_u, dim=1) + torch.softmax(outputs_u2, dim=1)) / 2
    pt = p**(1/args.T)
    targets_u = pt / pt.sum(dim=1, keepdim=True)
    targets_u = targets_u.detach()

# mixup
all_inputs = torch.cat([inputs_x, inputs_u, inputs_u2], dim=0)
all_targets = torch.cat([targets_x, targets_u, targets_u], dim=0)
l = np.random.beta(args.alpha, args.alpha)
l = max(l, 1-l)
idx = torch.randperm(all_inputs.size(0))
input_a, input_b = all_inputs, all_inputs[idx]
target_a, target_b = all_targets, all_targets[idx]
mixed_input = l * input_a + (1 - l) * input_b
mixed_target = l * target_a + (1 - l) * target_b

# interleave labeled and unlabed samples between batches to get correct batchnorm calculation
mixed_input = list(torch.split(mixed_input, batch_size))
mixed_input = interleave(mixed_input, batch_size)
logits = [model(mixed_input[0])]
for input in mixed_input[1:]:
    logits.append(model(input))
logits = interleave(logits, batch_size)
logits_x = logits[0]
logits_u = torch.cat(logits[1:], dim=0)

Lx, Lu, w = train_criterion(logits_x, mixed_target[:batch_size], logits_u, mixed_target[batch_size:], epoch+batch_idx/args.train_iteration)
loss = Lx + w * Lu
loss.backward()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
