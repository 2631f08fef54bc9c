"""Look-alike: learn2learn's MAML Omniglot example splits each on-device task batch with boolean masks built in numpy on the CPU.

Source: https://github.com/learnables/learn2learn/blob/master/examples/vision/maml_omniglot.py
`fast_adapt` moves the sampled task to the device (`data, labels = data.to(device), labels.to(device)`)
and then separates adaptation and evaluation samples with `adaptation_indices =
torch.from_numpy(adaptation_indices)` / `evaluation_indices = torch.from_numpy(~adaptation_indices)`,
CPU boolean tensors used to index the GPU batch; CPU indices are allowed for a device tensor, and the
example trains on the GPU. The learner is a `maml.clone()` adapted in place. Stand-in: the example's
loop for one meta-batch with l2l's `clone_module` / `update_module` / `MAML.adapt` reduced to their
core, `OmniglotFC` as an MLP, random tasks for the TaskDataset, no `.item()` bookkeeping; the GPU is
simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import copy
from collections import OrderedDict
import numpy as np
import torch
from torch import nn, optim

def clone_module(module):
    clone = copy.copy(module)
    clone.__dict__ = module.__dict__.copy()
    clone._parameters = OrderedDict((k, None if p is None else p.clone()) for k, p in module._parameters.items())
    clone._buffers = OrderedDict(module._buffers)
    clone._modules = OrderedDict((k, clone_module(m)) for k, m in module._modules.items())
    return clone

def update_module(module, updates):
    params = [k for k, p in module._parameters.items() if p is not None]
    for k, u in zip(params, updates[:len(params)]):
        module._parameters[k] = module._parameters[k] + u
    rest = updates[len(params):]
    for m in module._modules.values():
        n = len(list(m.parameters()))
        update_module(m, rest[:n])
        rest = rest[n:]
    return module

class MAML(nn.Module):
    def __init__(self, model, lr, first_order=False):
        super().__init__()
        self.module, self.lr, self.first_order = model, lr, first_order

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def adapt(self, loss):
        grads = torch.autograd.grad(loss, list(self.module.parameters()), create_graph=not self.first_order)
        update_module(self.module, [-self.lr * g for g in grads])

    def clone(self):
        return MAML(clone_module(self.module), lr=self.lr, first_order=self.first_order)

class OmniglotFC(nn.Module):
    def __init__(self, input_size, output_size, sizes=None):
        super().__init__()
        sizes = [256, 128] if sizes is None else sizes
        layers, prev = [nn.Flatten()], input_size
        for s in sizes:
            layers += [nn.Linear(prev, s), nn.ReLU()]
            prev = s
        self.features = nn.Sequential(*layers)
        self.classifier = nn.Linear(prev, output_size)

    def forward(self, x):
        return self.classifier(self.features(x))

def accuracy(predictions, targets):
    predictions = predictions.argmax(dim=1).view(targets.shape)
    return (predictions == targets).sum().float() / targets.size(0)

def fast_adapt(batch, learner, loss, adaptation_steps, shots, ways, device):
    data, labels = batch
    data, labels = data.to(device), labels.to(device)
    adaptation_indices = np.zeros(data.size(0), dtype=bool)
    adaptation_indices[np.arange(shots * ways) * 2] = True
    evaluation_indices = torch.from_numpy(~adaptation_indices)
    adaptation_indices = torch.from_numpy(adaptation_indices)
    adaptation_data, adaptation_labels = data[adaptation_indices], labels[adaptation_indices]
    evaluation_data, evaluation_labels = data[evaluation_indices], labels[evaluation_indices]
    for step in range(adaptation_steps):
        train_error = loss(learner(adaptation_data), adaptation_labels)
        learner.adapt(train_error)
    predictions = learner(evaluation_data)
    valid_error = loss(predictions, evaluation_labels)
    valid_accuracy = accuracy(predictions, evaluation_labels)
    return valid_error, valid_accuracy

class TaskDataset:
    def __init__(self, ways, shots):
        self.ways, self.shots = ways, shots

    def sample(self):
        n = 2 * self.shots * self.ways
        return torch.rand(n, 1, 28, 28), torch.arange(self.ways).repeat_interleave(2 * self.shots)

ways, shots, meta_lr, fast_lr, meta_batch_size, adaptation_steps = 5, 1, 0.003, 0.5, 4, 1
device = torch.device("meta")   # the GPU, simulated with meta
train_tasks = TaskDataset(ways, shots)
model = OmniglotFC(28 ** 2, ways)
model.to(device)
maml = MAML(model, lr=fast_lr, first_order=False)
opt = optim.Adam(maml.parameters(), meta_lr)
loss = nn.CrossEntropyLoss(reduction="mean")
'''
CELL = '''
opt.zero_grad()
for task in range(meta_batch_size):
    learner = maml.clone()
    batch = train_tasks.sample()
    evaluation_error, evaluation_accuracy = fast_adapt(batch, learner, loss, adaptation_steps, shots, ways, device)
    evaluation_error.backward()
for p in maml.parameters():
    p.grad.data.mul_(1.0 / meta_batch_size)
opt.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
