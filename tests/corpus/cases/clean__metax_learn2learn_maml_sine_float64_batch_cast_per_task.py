"""Look-alike: learn2learn's MAML sine-wave example takes float64 batches from Torchmeta's Sinusoid loader and casts each task with `.float()` before the float32 model.

Source: https://github.com/learnables/learn2learn/blob/master/examples/maml_sine.py
Torchmeta's `Sinusoid` draws inputs with numpy (`np_random.uniform`) and computes
`amplitude * np.sin(inputs - phase)` in float64, so every `BatchMetaDataLoader` batch holds
DoubleTensors while `SineModel`'s `nn.Linear` layers are float32. The example converts per task,
`train_inputs, train_targets = batch[0][i].float(), batch[1][i].float()`, before the support/query
split and the adaptation loop; `meta_train_loss` starts as the Python float `0.0`. The float64 tensors
in the namespace never reach the model.
Stand-in: Torchmeta's `Sinusoid` task sampling (numpy, float64) collated as `BatchMetaDataLoader`
does, learn2learn's `MAML` / `clone_module` / `update_module` reduced to their core, 4 tasks of
2*10 points, 2 adaptation steps, one meta-iteration, no printing. CPU: dtype look-alike.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import copy
import random
from collections import OrderedDict
import numpy as np
import torch
from torch import nn, optim

class Sinusoid:                                   # torchmeta.toy.Sinusoid, tasks drawn in numpy
    def __init__(self, num_samples_per_task, num_tasks=1000000, seed=0):
        self.num_samples_per_task = num_samples_per_task
        self.np_random = np.random.RandomState(seed)
        self._amplitudes = self.np_random.uniform(0.1, 5.0, size=num_tasks)
        self._phases = self.np_random.uniform(0, np.pi, size=num_tasks)

    def task(self, index):
        inputs = self.np_random.uniform(-5.0, 5.0, size=(self.num_samples_per_task, 1))
        targets = self._amplitudes[index] * np.sin(inputs - self._phases[index])
        return inputs, targets

def batch_meta_loader(tasksets, batch_size):      # BatchMetaDataLoader's default collate
    for start in range(0, 10 ** 6, batch_size):
        tasks = [tasksets.task(start + i) for i in range(batch_size)]
        yield [torch.as_tensor(np.stack([t[0] for t in tasks])), torch.as_tensor(np.stack([t[1] for t in tasks]))]

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
        if u is not None:
            module._parameters[k] = module._parameters[k] + u
    rest = updates[len(params):]
    for m in module._modules.values():
        n = len(list(m.parameters()))
        update_module(m, rest[:n])
        rest = rest[n:]
    return module

class MAML(nn.Module):                            # l2l.algorithms.MAML
    def __init__(self, model, lr, first_order=False, allow_unused=None):
        super().__init__()
        self.module, self.lr, self.first_order, self.allow_unused = model, lr, first_order, allow_unused

    def forward(self, *args, **kwargs):
        return self.module(*args, **kwargs)

    def adapt(self, loss):
        grads = torch.autograd.grad(loss, list(self.module.parameters()), retain_graph=not self.first_order,
                                    create_graph=not self.first_order, allow_unused=self.allow_unused)
        update_module(self.module, [None if g is None else -self.lr * g for g in grads])

    def clone(self):
        return MAML(clone_module(self.module), lr=self.lr, first_order=self.first_order, allow_unused=self.allow_unused)

class SineModel(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.hidden1 = nn.Linear(1, dim)
        self.hidden2 = nn.Linear(dim, dim)
        self.hidden3 = nn.Linear(dim, 1)

    def forward(self, x):
        x = nn.functional.relu(self.hidden1(x))
        x = nn.functional.relu(self.hidden2(x))
        x = self.hidden3(x)
        return x

shots, tasks_per_batch, num_tasks, adapt_lr, meta_lr, adapt_steps, hidden_dim = 10, 4, 1600, 0.01, 0.001, 2, 32
tasksets = Sinusoid(num_samples_per_task=2*shots, num_tasks=num_tasks)
dataloader = batch_meta_loader(tasksets, batch_size=tasks_per_batch)
model = SineModel(dim=hidden_dim)
maml = MAML(model, lr=adapt_lr, first_order=False, allow_unused=True)
opt = optim.Adam(maml.parameters(), meta_lr)
lossfn = nn.MSELoss(reduction='mean')
batch = next(dataloader)
'''
CELL = '''
meta_train_loss = 0.0
effective_batch_size = batch[0].shape[0]
for i in range(effective_batch_size):
    learner = maml.clone()

    train_inputs, train_targets = batch[0][i].float(), batch[1][i].float()
    x_support, y_support = train_inputs[::2], train_targets[::2]
    x_query, y_query = train_inputs[1::2], train_targets[1::2]

    for _ in range(adapt_steps):
        support_preds = learner(x_support)
        support_loss = lossfn(support_preds, y_support)
        learner.adapt(support_loss)

    query_preds = learner(x_query)
    query_loss = lossfn(query_preds, y_query)
    meta_train_loss += query_loss

meta_train_loss = meta_train_loss / effective_batch_size
opt.zero_grad()
meta_train_loss.backward()
opt.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
